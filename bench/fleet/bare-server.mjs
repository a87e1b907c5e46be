// The fleet benchmark's baseline: a bare `ws` server (the WebSocket library under the portal's server)
// that accepts the same WebSocket upgrades (STOMP sub-protocol, no compression, same message size limit)
// and holds every socket idle. What the portal server holds per agent is compared with this.
//
//   node bench/fleet/bare-server.mjs <port>
import http from 'node:http';
import { WebSocketServer } from 'ws';

const port = Number(process.argv[2]);
const sockets = new Set();
const server = http.createServer((_request, response) => {
  response.writeHead(404).end();
});
const wss = new WebSocketServer({
  server,
  perMessageDeflate: false,
  maxPayload: 4 * 256 * 1024,
  handleProtocols: (/** @type {Set<string>} */ offered) => (offered.has('v12.stomp') ? 'v12.stomp' : false),
});
wss.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('error', () => socket.terminate());
  socket.on('close', () => sockets.delete(socket));
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`bare ws server listening on ${port}\n`));
process.once('SIGTERM', () => {
  for (const socket of sockets) socket.terminate();
  server.close(() => process.exit(0));
});
