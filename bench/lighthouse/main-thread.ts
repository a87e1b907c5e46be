// The main thread's CPU time of loading the sign-in page, the dashboard and a task page (issue 31, phones): what
// Lighthouse's blocking time is made of, measured so that the machine's load counts little. Each load runs in a
// fresh headless Chromium (empty cache) at a phone's width without throttling, with a Chromium trace; from the page
// renderer's main thread it takes each task's thread time (CPU, not wall-clock): the sum, the longest task, and the
// blocking time those tasks would give on Lighthouse's phone (4x slower CPU: every task's 4 x CPU beyond 50 ms).
// BENCH_MAIN_THREAD_RUNS loads (5) per page, median; the longest task is named by what ran in it. Also what came before
// the first contentful paint, which Lighthouse's simulation makes the page wait for: the CPU of the tasks that started
// before it, and the script bytes on the wire of the requests sent before it (its phone's network is 1.6 Mbit/s).
//
// Every answer of every page load is counted by status: one that is not 2xx (or an error the server logs) fails the
// run, and the summary is not printed.
//
//   npm run build && npx tsx bench/lighthouse/main-thread.ts
//   BENCH_SERVER_ENTRY=/tmp/before/apps/server/dist/main.js npx tsx bench/lighthouse/main-thread.ts   # another build
import puppeteer, { type Browser } from 'puppeteer-core';
import { Answers } from '../answers.js';
import { CHROMIUM_FLAGS } from '../chromium.js';
import { loadAverages } from '../machine.js';
import { type MeasuredPage, measuredPages, SERVER_ENTRY, startDemoServer } from './demo.js';

const RUNS = Number(process.env.BENCH_MAIN_THREAD_RUNS ?? 5);
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
/** Lighthouse's mobile CPU slowdown and the length from which a task blocks. */
const PHONE_SLOWDOWN = 4;
const LONG_TASK_MS = 50;
/** How long the page may keep working after the network is idle (renders of the answers, timers). */
const SETTLE_MS = 1500;
const answers = new Answers();

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    name?: string;
    data?: {
      url?: string;
      functionName?: string;
      type?: string;
      requestId?: string;
      resourceType?: string;
      encodedDataLength?: number;
    };
  };
}

interface Load {
  /** Main-thread CPU of every task, ms. */
  cpuMs: number;
  /** The longest task's CPU, ms, and what ran in it. */
  longestMs: number;
  longestWhat: string;
  /** Σ max(0, 4 x task CPU - 50 ms): the blocking time of these tasks on Lighthouse's phone. */
  phoneBlockingMs: number;
  /** Tasks whose 4 x CPU passes 50 ms. */
  phoneLongTasks: number;
  /** CPU of the tasks that started before the first contentful paint, ms. */
  firstPaintCpuMs: number;
  /** Bytes on the wire of the page's scripts requested before the first contentful paint, KiB. */
  firstPaintScriptKiB: number;
}

/**
 * The renderer main thread that ran the page: the CrRendererMain that compiled the page's scripts (the browser's
 * own pages, such as a new tab's, run in renderers of their own and are left out).
 */
function pageThread(events: TraceEvent[], origin: string): { pid: number; tid: number } {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const ranPage = (t: TraceEvent) =>
    events.some((e) => e.pid === t.pid && e.tid === t.tid && e.args?.data?.url?.startsWith(origin));
  const thread = mains.find(ranPage);
  if (!thread) throw new Error(`the trace has no renderer main thread that ran ${origin}`);
  return { pid: thread.pid, tid: thread.tid };
}

/** What ran in a task: its longest script evaluation, function call or event (the script's file name). */
function whatRan(events: TraceEvent[], task: TraceEvent): string {
  const end = task.ts + (task.dur ?? 0);
  const inner = events
    .filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts <= end && e !== task)
    .filter((e) =>
      ['v8.evaluateModule', 'EvaluateScript', 'FunctionCall', 'TimerFire', 'EventDispatch', 'v8.compile'].includes(
        e.name,
      ),
    )
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0];
  if (!inner) return 'other';
  const url = inner.args?.data?.url?.replace(/^https?:\/\/[^/]+/, '') ?? '';
  return `${inner.name}${url ? ` ${url}` : ''}`;
}

/** The page's script bytes on the wire (KiB) of the requests sent before `until`. */
function scriptKiBBefore(events: TraceEvent[], origin: string, until: number): number {
  const sent = new Set(
    events
      .filter((e) => e.name === 'ResourceSendRequest' && e.ts < until)
      .filter((e) => e.args?.data?.resourceType === 'Script' && e.args.data.url?.startsWith(origin))
      .map((e) => e.args?.data?.requestId),
  );
  const bytes = events
    .filter((e) => e.name === 'ResourceFinish' && sent.has(e.args?.data?.requestId))
    .reduce((sum, e) => sum + (e.args?.data?.encodedDataLength ?? 0), 0);
  return bytes / 1024;
}

function loadOf(events: TraceEvent[], origin: string): Load {
  const { pid, tid } = pageThread(events, origin);
  const own = events.filter((e) => e.pid === pid && e.tid === tid);
  const tasks = own.filter((e) => e.name === 'RunTask' && e.ph === 'X');
  const ms = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
  const longest = [...tasks].sort((a, b) => ms(b) - ms(a))[0];
  const firstPaint = own.find((e) => e.name === 'firstContentfulPaint')?.ts;
  if (firstPaint === undefined) throw new Error(`the trace of ${origin} has no first contentful paint`);
  return {
    cpuMs: tasks.reduce((s, e) => s + ms(e), 0),
    longestMs: longest ? ms(longest) : 0,
    longestWhat: longest ? whatRan(own, longest) : '',
    phoneBlockingMs: tasks.reduce((s, e) => s + Math.max(0, PHONE_SLOWDOWN * ms(e) - LONG_TASK_MS), 0),
    phoneLongTasks: tasks.filter((e) => PHONE_SLOWDOWN * ms(e) > LONG_TASK_MS).length,
    firstPaintCpuMs: tasks.filter((e) => e.ts < firstPaint).reduce((s, e) => s + ms(e), 0),
    firstPaintScriptKiB: scriptKiBBefore(events, origin, firstPaint),
  };
}

async function measure(browser: Browser, page: MeasuredPage): Promise<Load> {
  if (page.session) {
    await browser.setCookie({ name: 'portal_session', value: page.session, domain: '127.0.0.1', path: '/' });
  }
  const tab = await browser.newPage();
  tab.on('response', (response) => {
    const name = `${response.request().method()} ${new URL(response.url()).pathname} (page load)`;
    answers.http(name, response.status(), response.statusText());
  });
  await tab.setViewport({ width: 412, height: 823, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  await tab.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'] });
  await tab.goto(page.url, { waitUntil: 'networkidle0' });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const trace = await tab.tracing.stop();
  if (!trace) throw new Error('no trace');
  if (process.env.BENCH_MAIN_THREAD_TRACES) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${process.env.BENCH_MAIN_THREAD_TRACES}/${page.key}-${Date.now()}.json`, Buffer.from(trace));
  }
  const { traceEvents } = JSON.parse(Buffer.from(trace).toString('utf8')) as { traceEvents: TraceEvent[] };
  return loadOf(traceEvents, new URL(page.url).origin);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const server = await startDemoServer(answers);
try {
  const pages = await measuredPages(server.url);
  console.log(`Main-thread CPU of a page load (${RUNS} fresh browsers each, median; ${SERVER_ENTRY}), ms`);
  const rows: string[] = [];
  for (const page of pages) {
    const before = loadAverages();
    const runs: Load[] = [];
    for (let i = 0; i < RUNS; i++) {
      const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
      try {
        runs.push(await measure(browser, page));
      } finally {
        await browser.close();
      }
    }
    const pick = (f: (l: Load) => number) => median(runs.map(f)).toFixed(0);
    const row = [
      page.name,
      pick((l) => l.cpuMs),
      runs.map((l) => l.cpuMs.toFixed(0)).join(' '),
      pick((l) => l.longestMs),
      runs.map((l) => l.longestMs.toFixed(0)).join(' '),
      pick((l) => l.phoneBlockingMs),
      pick((l) => l.phoneLongTasks),
      pick((l) => l.firstPaintCpuMs),
      runs.map((l) => l.firstPaintCpuMs.toFixed(0)).join(' '),
      pick((l) => l.firstPaintScriptKiB),
      before,
      loadAverages(),
    ];
    rows.push(`| ${row.join(' | ')} |`);
    console.log(rows.at(-1));
    for (const l of runs) console.log(`  longest task ${l.longestMs.toFixed(0)} ms: ${l.longestWhat}`);
  }
  await server.stop();
  if (!answers.verdict('Main-thread CPU')) process.exit(1);
  console.log(
    '\n| page | main-thread CPU | runs | longest task | runs | blocking on a 4x phone | long tasks on a 4x phone | CPU before first paint | runs | script KiB requested before first paint | load before | load after |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`HTTP ${answers.statusLine()}`);
} finally {
  await server.stop();
}
