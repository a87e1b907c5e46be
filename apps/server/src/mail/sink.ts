import type { DemoMail } from '@portal/domain';
import { SMTPServer } from 'smtp-server';
import { parsePlainMail } from './parse.js';

/**
 * The demo's local SMTP peer: accepts every mail on loopback and keeps the latest ones in memory
 * so the demo mail viewer can show them (nothing leaves the machine).
 */
export async function startMailSink(port: number, keep = 200) {
  const mails: DemoMail[] = [];
  let nextId = 1;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        const parsed = parsePlainMail(Buffer.concat(chunks).toString('utf8'));
        mails.unshift({ id: nextId++, receivedAt: new Date().toISOString(), ...parsed });
        mails.length = Math.min(mails.length, keep);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    port: boundPort,
    url: `smtp://127.0.0.1:${boundPort}`,
    list: (): readonly DemoMail[] => mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type MailSink = Awaited<ReturnType<typeof startMailSink>>;
