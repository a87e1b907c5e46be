// Starts the built server (apps/server/dist/main.js) against the benchmark database and signs users in
// the way a browser does: GET /login for the anonymous CSRF cookie and token, then POST /login.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { type RunningServer, startBuiltServer } from '../server-process.js';
import { baseUrl, ROOT, SETTINGS } from './common.js';

/** The server build to run: BENCH_SERVER_ENTRY names another (e.g. of another commit, to compare two builds). */
export const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY || join(ROOT, 'apps/server/dist/main.js');
export const WEB_INDEX = join(ROOT, 'apps/web/dist/index.html');

/** `npm run build` (web, server, agent) unless BENCH_BUILD=0, or always when no build exists. */
export async function buildIfWanted(): Promise<void> {
  const built = existsSync(SERVER_ENTRY) && existsSync(WEB_INDEX);
  if (process.env.BENCH_BUILD === '0' && built) return;
  console.log('Building (npm run build) ...');
  const code = await new Promise<number>((resolve) => {
    const child = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
}

/** Runs the built server on BENCH_PORT with the benchmark database; resolves once /health answers. */
export function startServer(): Promise<RunningServer> {
  return startBuiltServer({
    entry: SERVER_ENTRY,
    cwd: ROOT,
    url: baseUrl(),
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: SETTINGS.databaseUrl,
      PORT: String(SETTINGS.port),
      HOST: '127.0.0.1',
      MASTER_KEY: 'b'.repeat(64),
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL || 'warn',
      DEMO: 'false',
    },
    dataDirPrefix: 'portal-bench-',
    // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server under load.
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    startSeconds: 60,
    pollMs: 250,
  });
}

// --- HTTP ---------------------------------------------------------------------------------------------

/** Keep-alive connections, as a browser keeps them; one socket per concurrent user at most. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  raw: Buffer;
}

export function request(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const get = (url: string, headers: Record<string, string> = {}) => request('GET', url, { headers });

const cookiesOf = (res: Response): Map<string, string> => {
  const out = new Map<string, string>();
  for (const line of res.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0) out.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return out;
};

export interface Session {
  email: string;
  /** The Cookie header to send. */
  cookie: string;
  /** The session cookie's value alone, for a browser context. */
  token: string;
}

/** Signs in like the login form: the anonymous CSRF cookie and the page's token, then POST /login. */
export async function signIn(url: string, email: string, password = SETTINGS.password): Promise<Session> {
  const page = await get(`${url}/login`, { accept: 'text/html' });
  const csrfCookie = cookiesOf(page).get('portal_csrf');
  const token = /<meta name="_csrf" content="([^"]+)">/.exec(page.body)?.[1];
  if (!csrfCookie || !token) throw new Error(`GET /login gave no CSRF cookie or token (status ${page.status})`);
  const body = new URLSearchParams({ username: email, password, _csrf: token }).toString();
  const res = await request('POST', `${url}/login`, {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `portal_csrf=${csrfCookie}`,
      accept: 'text/html',
    },
    body,
  });
  const session = cookiesOf(res).get('portal_session');
  if (!session || res.headers.location !== '/') {
    throw new Error(`sign-in of ${email} failed (status ${res.status}, location ${res.headers.location ?? '-'})`);
  }
  return { email, cookie: `portal_session=${session}`, token: session };
}
