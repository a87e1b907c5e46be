// Lighthouse performance and accessibility scores (issue 29 item 14, issue 31) of the sign-in page, the provider
// admin's dashboard and a customer's task page, mobile and desktop, on the built server in demo mode: each
// measurement runs BENCH_LIGHTHOUSE_RUNS times (3) in a fresh Chromium (empty cache) and the median is reported,
// with the load average beside it, since the machine is shared and Lighthouse's CPU timings follow what else runs.
// The accessibility audits that did not pass are named under the table.
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DashboardMachineRow, type DashboardTaskRow, type Paged, ROUTES, taskUrl } from '@portal/domain';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS } from '../chromium.js';
import { type RunningServer, startBuiltServer } from '../server-process.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The server build to run: BENCH_SERVER_ENTRY names another (e.g. of another commit, for a before and after). */
const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY || join(ROOT, 'apps/server/dist/main.js');
const PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 18600);
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';
const SIGNED_IN_AS = 'provider-admin@demo.test';
/** Whose task page is measured: the demo customer admin's first machine's first task. */
const TASK_OWNER = 'customer-admin@demo.test';
/** The demo server as the journeys start it (e2e/playwright.config.ts): fresh data folder, no live agents. */
function startDemoServer(): Promise<RunningServer> {
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
  });
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** Signs in as the login form does: the anonymous CSRF cookie and the page's token, then POST /login. */
async function signIn(url: string, email: string): Promise<string> {
  const page = await fetch(`${url}/login`, { headers: { accept: 'text/html' } });
  const csrf = cookieOf(page, 'portal_csrf');
  const token = /<meta name="_csrf" content="([^"]+)">/.exec(await page.text())?.[1];
  if (!csrf || !token) throw new Error(`GET /login gave no CSRF cookie or token (status ${page.status})`);
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
  if (!session) throw new Error(`sign-in of ${email} failed (status ${answer.status})`);
  return session;
}

/** The result of a JSON GET with the session. */
async function resultOf<T>(url: string, session: string): Promise<T> {
  const answer = await fetch(url, { headers: { accept: 'application/json', cookie: `portal_session=${session}` } });
  const body = (await answer.json()) as { result: T | null };
  if (!answer.ok || body.result === null) throw new Error(`GET ${url}: ${answer.status}`);
  return body.result;
}

/** The address of the customer's first task (of its first machine that has one). */
async function firstTaskPath(url: string, session: string): Promise<string> {
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

interface Measurement {
  score: number;
  accessibility: number;
  /** The ids of the accessibility audits that did not pass. */
  accessibilityFailures: string[];
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Bytes on the wire of every request, and of the scripts alone. */
  totalBytes: number;
  scriptBytes: number;
  /** Lighthouse's "Enable text compression" audit passed. */
  textCompression: boolean;
}

function measurementOf(result: Result): Measurement {
  const numeric = (id: string) => result.audits[id]?.numericValue ?? Number.NaN;
  const resources = result.audits['resource-summary']?.details;
  const items =
    resources && 'items' in resources ? (resources.items as { resourceType: string; transferSize: number }[]) : [];
  const accessibility = result.categories.accessibility;
  return {
    score: Math.round((result.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((accessibility?.score ?? 0) * 100),
    accessibilityFailures: (accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (result.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    totalBytes: numeric('total-byte-weight'),
    scriptBytes: items.find((i) => i.resourceType === 'script')?.transferSize ?? Number.NaN,
    textCompression: (result.audits['uses-text-compression']?.score ?? 0) >= 0.9,
  };
}

/** One Lighthouse navigation in a fresh browser (empty cache), with the session cookie when given. */
async function measure(url: string, formFactor: 'mobile' | 'desktop', session: string | null): Promise<Measurement> {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    if (session) {
      await browser.setCookie({ name: 'portal_session', value: session, domain: '127.0.0.1', path: '/' });
    }
    const flags: Flags = { output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
    const runner = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined, page);
    if (!runner) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = runner;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (session && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`signed in, ${url} ended at ${lhr.finalDisplayedUrl}`);
    }
    return measurementOf(lhr);
  } finally {
    await browser.close();
  }
}

/**
 * On a loaded machine Lighthouse now and then loses the trace of a page load (NO_NAVSTART, NO_FCP): such a run
 * is made again, at most twice, and said so; its figures never count.
 */
async function measureWithRetries(
  url: string,
  formFactor: 'mobile' | 'desktop',
  session: string | null,
): Promise<Measurement> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, formFactor, session);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`run again after: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

const server = process.env.BENCH_LIGHTHOUSE_URL ? null : await startDemoServer();
const base = process.env.BENCH_LIGHTHOUSE_URL ?? server?.url ?? '';
try {
  const session = await signIn(base, SIGNED_IN_AS);
  const customerSession = await signIn(base, TASK_OWNER);
  const taskPath = await firstTaskPath(base, customerSession);
  const pages = [
    { name: 'sign-in (/login)', url: `${base}/login`, session: null },
    { name: `dashboard (/, ${SIGNED_IN_AS})`, url: `${base}/`, session },
    { name: `task page (${taskPath}, ${TASK_OWNER})`, url: `${base}${taskPath}`, session: customerSession },
  ];
  console.log(`Lighthouse ${RUNS} runs each, median; ${base}; load average before each set (1, 5, 15 min)`);
  const header = [
    'page',
    'form factor',
    'score',
    'runs',
    'accessibility',
    'FCP ms',
    'LCP ms',
    'TBT ms',
    'bytes',
    'JS bytes',
    'text compression',
    'load before',
    'load after',
  ];
  const rows: string[][] = [];
  const accessibilityFailures: string[] = [];
  for (const target of pages) {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const before = load();
      const runs: Measurement[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measureWithRetries(target.url, formFactor, target.session));
      const pick = (f: (m: Measurement) => number) => median(runs.map(f));
      rows.push([
        target.name,
        formFactor,
        String(pick((m) => m.score)),
        runs.map((m) => m.score).join(' '),
        String(pick((m) => m.accessibility)),
        pick((m) => m.fcpMs).toFixed(0),
        pick((m) => m.lcpMs).toFixed(0),
        pick((m) => m.tbtMs).toFixed(0),
        kib(pick((m) => m.totalBytes)),
        kib(pick((m) => m.scriptBytes)),
        runs.every((m) => m.textCompression) ? 'passed' : 'failed',
        before,
        load(),
      ]);
      console.log(`| ${rows.at(-1)?.join(' | ')} |`);
      const failed = [...new Set(runs.flatMap((m) => m.accessibilityFailures))];
      if (failed.length > 0) accessibilityFailures.push(`${target.name}, ${formFactor}: ${failed.join(', ')}`);
    }
  }
  console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('\nAccessibility audits not passed:');
  for (const line of accessibilityFailures.length > 0 ? accessibilityFailures : ['none']) console.log(`- ${line}`);
} finally {
  await server?.stop();
}
