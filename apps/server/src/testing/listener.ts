import { createServer, type Server } from 'node:net';

/**
 * A TCP listener on a free loopback port that records every connection and the bytes it received, and
 * answers the first bytes of each connection with `reply` (nothing by default) and closes it: a host nobody configured, to
 * prove a request (HTTP, S3, SMTP alike) did or did not reach it.
 */
export async function startRecordingListener(reply = '') {
  const received: string[] = [];
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    const index = received.push('') - 1;
    socket.on('data', (chunk: Buffer) => {
      received[index] += chunk.toString('latin1');
      // Answered at once, so a request that should not have come fails fast instead of waiting for its timeout.
      if (reply) socket.end(reply);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('listener has no port');
  return {
    port: address.port,
    received,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type RecordingListener = Awaited<ReturnType<typeof startRecordingListener>>;
