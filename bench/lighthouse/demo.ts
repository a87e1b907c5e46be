// The demo server of the browser benchmarks (lighthouse/run.ts, lighthouse/main-thread.ts): the built server in demo
// mode as the journeys start it, signing in over HTTP as the login form does, and the pages both measure.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DashboardMachineRow, type DashboardTaskRow, type Paged, ROUTES, taskUrl } from '@portal/domain';
import { type Answers, answerError } from '../answers.js';
import { type RunningServer, startBuiltServer } from '../server-process.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The server build to run: BENCH_SERVER_ENTRY names another (e.g. of another commit, for a before and after). */
export const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY || join(ROOT, 'apps/server/dist/main.js');
export const PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 18600);
const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';
export const SIGNED_IN_AS = 'provider-admin@demo.test';
/** Whose task page is measured: the demo customer admin's first machine's first task. */
export const TASK_OWNER = 'customer-admin@demo.test';
/**
 * The demo server as the journeys start it (e2e/playwright.config.ts): fresh data folder, no live agents; every error
 * it logs counts in `answers`.
 */
export function startDemoServer(answers: Answers): Promise<RunningServer> {
  return startBuiltServer({
    entry: SERVER_ENTRY,
    cwd: ROOT,
    url: `http://127.0.0.1:${PORT}`,
    env: {
      DEMO: 'true',
      DEMO_AGENTS: '0',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DEMO_PASSWORD: PASSWORD,
      DEMO_SMTP_PORT: String(PORT + 1),
      DEMO_WHMCS_PORT: String(PORT + 2),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
    dataDirPrefix: 'portal-lighthouse-',
    startSeconds: 120,
    pollMs: 500,
    answers,
  });
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/**
 * Signs in as the login form does: the anonymous CSRF cookie and the page's token, then POST /login. The demo's
 * listed logins sign in without two-factor sign-in (the product's rule for them, so a newcomer can look around).
 */
export async function signIn(url: string, email: string): Promise<string> {
  const page = await fetch(`${url}/login`, { headers: { accept: 'text/html' } });
  const csrf = cookieOf(page, 'portal_csrf');
  const token = /<meta name="_csrf" content="([^"]+)">/.exec(await page.text())?.[1];
  if (!csrf || !token) throw answerError('GET /login (no CSRF cookie or token)', page.status, '');
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `portal_csrf=${csrf}`,
      accept: 'text/html',
    },
    body: new URLSearchParams({ username: email, password: PASSWORD, _csrf: token }).toString(),
  });
  const session = cookieOf(answer, 'portal_session');
  if (!session || answer.headers.get('location') !== '/') {
    throw answerError(`POST /login of ${email} (to ${answer.headers.get('location')})`, answer.status, '');
  }
  return session;
}

/** The result of a JSON GET with the session. */
async function resultOf<T>(url: string, session: string): Promise<T> {
  const answer = await fetch(url, { headers: { accept: 'application/json', cookie: `portal_session=${session}` } });
  const text = await answer.text();
  const result = answer.ok ? (JSON.parse(text) as { result: T | null }).result : null;
  if (result === null) throw answerError(`GET ${url}`, answer.status, text);
  return result;
}

/** The address of the customer's first task (of its first machine that has one). */
export async function firstTaskPath(url: string, session: string): Promise<string> {
  const machines = await resultOf<Paged<DashboardMachineRow>>(`${url}${ROUTES.dashboard.ownMachines.build()}`, session);
  for (const machine of machines.elements) {
    const tasks = await resultOf<Paged<DashboardTaskRow>>(
      `${url}${ROUTES.dashboard.machineTasks.build({ machineId: machine.id })}`,
      session,
    );
    const task = tasks.elements[0];
    if (task) return taskUrl('customer', { machineId: machine.id, taskId: task.id });
  }
  throw new Error(`${TASK_OWNER} has no task`);
}

export interface MeasuredPage {
  key: 'sign-in' | 'dashboard' | 'task';
  name: string;
  url: string;
  /** The session cookie's value, or null for the signed-out page. */
  session: string | null;
}

/** The three measured pages: sign-in, the provider admin's dashboard and the customer admin's first task page. */
export async function measuredPages(base: string): Promise<MeasuredPage[]> {
  const session = await signIn(base, SIGNED_IN_AS);
  const customerSession = await signIn(base, TASK_OWNER);
  const taskPath = await firstTaskPath(base, customerSession);
  return [
    { key: 'sign-in', name: 'sign-in (/login)', url: `${base}/login`, session: null },
    { key: 'dashboard', name: `dashboard (/, ${SIGNED_IN_AS})`, url: `${base}/`, session },
    {
      key: 'task',
      name: `task page (${taskPath}, ${TASK_OWNER})`,
      url: `${base}${taskPath}`,
      session: customerSession,
    },
  ];
}
