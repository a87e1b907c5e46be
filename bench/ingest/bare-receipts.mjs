// The ingest benchmark's baseline: a bare `ws` server that answers every STOMP frame carrying a receipt with its
// RECEIPT at once (and CONNECT with CONNECTED), storing nothing. The load generator's own ceiling: what the portal
// server does with each event is measured against this.
//
//   node bench/ingest/bare-receipts.mjs <port>
import http from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.argv[2]);
const server = http.createServer((_request, response) => {
  response.writeHead(404).end();
});
const wss = new WebSocketServer({
  server,
  perMessageDeflate: false,
  handleProtocols: (/** @type {Set<string>} */ offered) => (offered.has('v12.stomp') ? 'v12.stomp' : false),
});
wss.on('connection', (socket) => {
  socket.on('error', () => socket.terminate());
  socket.on('message', (/** @type {Buffer} */ data) => {
    const text = data.toString('utf8');
    if (text.startsWith('CONNECT')) {
      socket.send('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\u0000');
      return;
    }
    const receipt = /\nreceipt:([^\n]*)\n/.exec(text.slice(0, text.indexOf('\n\n') + 1))?.[1];
    if (receipt) socket.send(`RECEIPT\nreceipt-id:${receipt}\n\n\u0000`);
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`bare receipt server listening on ${port}\n`));
process.once('SIGTERM', () => {
  for (const socket of wss.clients) socket.terminate();
  server.close(() => process.exit(0));
});
