// Starts the built server (apps/server/dist/main.js) against the benchmark database and signs users in
// the way a browser does: GET /login for the anonymous CSRF cookie and token, then POST /login, and for a user with
// two-factor sign-in (the provider admins) the second step with the code of their authenticator app.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { CSRF_HEADER_NAME, PAGES } from '@portal/domain';
import { type Answers, answerError } from '../answers.js';
import { type RunningServer, startBuiltServer } from '../server-process.js';
import { BENCH_MASTER_KEY, nextCode } from '../two-factor.js';
import { baseUrl, connect, ROOT, SETTINGS } from './common.js';

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

/**
 * Runs the built server on BENCH_PORT with the benchmark database; resolves once /health answers. Every error the
 * server logs counts in `answers`.
 */
export function startServer(answers: Answers): Promise<RunningServer> {
  return startBuiltServer({
    entry: SERVER_ENTRY,
    cwd: ROOT,
    url: baseUrl(),
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: SETTINGS.databaseUrl,
      PORT: String(SETTINGS.port),
      HOST: '127.0.0.1',
      MASTER_KEY: BENCH_MASTER_KEY,
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL || 'warn',
      DEMO: 'false',
    },
    dataDirPrefix: 'portal-bench-',
    // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server under load.
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    startSeconds: 60,
    pollMs: 250,
    answers,
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

/**
 * Signs in like the login form: the anonymous CSRF cookie and the page's token, then POST /login; a user with
 * two-factor sign-in then opens the second step's page and posts the code (`databaseUrl`: where to read which of the
 * app's codes the server took last, so a second sign-in within a code's 30 seconds gives the next one).
 */
export async function signIn(
  url: string,
  email: string,
  password = SETTINGS.password,
  databaseUrl = SETTINGS.databaseUrl,
): Promise<Session> {
  const page = await get(`${url}/login`, { accept: 'text/html' });
  const csrfCookie = cookiesOf(page).get('portal_csrf');
  const token = csrfOf(page);
  if (!csrfCookie || !token) throw answerError('GET /login (no CSRF cookie or token)', page.status, page.body);
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
  if (session && res.headers.location === '/') return { email, cookie: `portal_session=${session}`, token: session };
  if (!session || res.headers.location !== PAGES.loginMfa) {
    throw answerError(`POST /login of ${email} (to ${res.headers.location ?? 'nowhere'})`, res.status, res.body);
  }
  return secondStep(url, email, `portal_session=${session}`, databaseUrl);
}

const csrfOf = (page: Response) => /<meta name="_csrf" content="([^"]+)">/.exec(page.body)?.[1];

/** The second step of a two-factor sign-in: the half-signed-in session's page, then the app's code. */
async function secondStep(url: string, email: string, cookie: string, databaseUrl: string): Promise<Session> {
  const page = await get(`${url}${PAGES.loginMfa}`, { accept: 'text/html', cookie });
  const csrf = csrfOf(page);
  if (page.status !== 200 || !csrf) throw answerError(`GET ${PAGES.loginMfa} of ${email}`, page.status, page.body);
  const db = await connect(databaseUrl);
  const lastStep = await db
    .query<{ last_step: string | null }>(
      'select m.last_step from user_mfa m join users u on u.id = m.user_id where u.email = $1',
      [email],
    )
    .finally(() => db.end());
  const step = lastStep.rows[0]?.last_step;
  const code = await nextCode(email, step === null || step === undefined ? null : Number(step));
  const res = await request('POST', `${url}${PAGES.loginMfa}`, {
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie, [CSRF_HEADER_NAME]: csrf },
    body: JSON.stringify({ code }),
  });
  const session = cookiesOf(res).get('portal_session');
  if (res.status !== 200 || !session) throw answerError(`POST ${PAGES.loginMfa} of ${email}`, res.status, res.body);
  return { email, cookie: `portal_session=${session}`, token: session };
}
