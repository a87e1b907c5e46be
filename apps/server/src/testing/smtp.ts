import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP peer received it: the envelope, who authenticated, whether TLS was on. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | null;
  secure: boolean;
  /** The whole RFC 5322 message (headers and MIME body). */
  raw: string;
}

export interface TestSmtpOptions {
  /** Accepted logins; when given, AUTH is required before MAIL FROM. */
  users?: Record<string, string>;
  /** Offer STARTTLS (a self-signed certificate made for this server). Default true. */
  startTls?: boolean;
  /** Refuse AUTH on a connection that has not started TLS. Default: true when STARTTLS is offered. */
  authOnlyAfterTls?: boolean;
  /** Sender addresses refused at MAIL FROM with 553. */
  refusedSenders?: string[];
  /** Advertise AUTH at all. Default true; false is a server that takes mail from anyone. */
  offerAuth?: boolean;
}

let certificate: { key: Buffer; cert: Buffer; file: string } | null = null;

/** Child processes (Playwright's workers) reuse the certificate their parent made, so the server trusts theirs too. */
const SHARED_CERT_DIR = 'PORTAL_TEST_SMTP_CERT_DIR';

/**
 * A self-signed certificate for 127.0.0.1 / localhost, made once with the system's openssl and shared with child
 * processes through PORTAL_TEST_SMTP_CERT_DIR; its `file` (the certificate as PEM) is what a server under test
 * trusts through SMTP_CA_FILE.
 */
export function testSmtpCertificate(): { key: Buffer; cert: Buffer; file: string } {
  if (certificate) return certificate;
  const shared = process.env[SHARED_CERT_DIR];
  if (shared && existsSync(join(shared, 'key.pem')) && existsSync(join(shared, 'cert.pem'))) {
    const file = join(shared, 'cert.pem');
    certificate = { key: readFileSync(join(shared, 'key.pem')), cert: readFileSync(file), file };
    return certificate;
  }
  const dir = mkdtempSync(join(tmpdir(), 'portal-smtp-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const file = join(dir, 'cert.pem');
  certificate = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(file), file };
  process.env[SHARED_CERT_DIR] = dir;
  return certificate;
}

/**
 * A real SMTP server on loopback for tests (issue 17): STARTTLS with a self-signed certificate, AUTH
 * PLAIN/LOGIN against the given users, senders it refuses, and every accepted message kept in memory.
 * Clients trust its self-signed certificate through SMTP_CA_FILE = testSmtpCertificate().file.
 */
export async function startTestSmtpServer(options: TestSmtpOptions = {}) {
  const startTls = options.startTls ?? true;
  const users = options.users;
  const authOnlyAfterTls = options.authOnlyAfterTls ?? startTls;
  const refused = new Set((options.refusedSenders ?? []).map((s) => s.toLowerCase()));
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const tls = startTls ? testSmtpCertificate() : null;

  const server = new SMTPServer({
    logger: false,
    size: 10 * 1024 * 1024,
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    disabledCommands: [...(tls ? [] : ['STARTTLS']), ...(options.offerAuth === false ? ['AUTH'] : [])],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !users,
    allowInsecureAuth: !authOnlyAfterTls,
    onAuth(auth, _session, callback) {
      if (users && users[auth.username ?? ''] !== undefined && users[auth.username ?? ''] === auth.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onMailFrom(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('Sender address rejected: not owned by user'), { responseCode: 553 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          secure: session.secure,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    host: '127.0.0.1',
    port,
    /** Every message accepted so far, oldest first. */
    mails: (): readonly ReceivedMail[] => mails,
    /** Forgets the messages received so far. */
    clear() {
      mails.length = 0;
    },
    /** Resolves with the first message (received before or after the call) that matches, or fails after timeoutMs. */
    waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type TestSmtpServer = Awaited<ReturnType<typeof startTestSmtpServer>>;
