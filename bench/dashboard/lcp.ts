// The dashboard page in Chromium with the benchmark data: largest contentful paint of '/' for a signed-in
// provider admin on loopback, and the gzip size of the initial JavaScript (the scripts index.html names).
//
//   npx tsx bench/dashboard/lcp.ts      build (unless BENCH_BUILD=0), start the server, measure
//
// Each cold run uses a new browser context (empty cache) with the session cookie of an HTTP sign-in, so
// the page, its scripts and its first API calls all load in that navigation; the warm run reloads in the
// last context (scripts cached, as after the login page loaded them). Every answer the page and the script fetches
// get is counted by status: one that is not 2xx (or an error the server logs) fails the run, and no figures are printed.
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { Answers } from '../answers.js';
import { CHROMIUM_FLAGS } from '../chromium.js';
import { BENCH_ACCOUNTS, SETTINGS, summarise, table } from './common.js';
import { readMarker } from './seed.js';
import { buildIfWanted, get, type Session, signIn, startServer } from './server.js';

const LCP_TARGET_MS = 1500;
const JS_TARGET_BYTES = 200 * 1024;

/** Collects largest-contentful-paint entries from the very start of the page. */
const OBSERVER = `
  window.__lcp = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element;
      window.__lcp.push({
        time: e.startTime,
        size: e.size,
        element: el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.getAttribute('data-testid') ? '[data-testid=' + el.getAttribute('data-testid') + ']' : '') : '(gone)',
        text: el ? (el.textContent || '').trim().slice(0, 60) : '',
      });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

interface LcpEntry {
  time: number;
  size: number;
  element: string;
  text: string;
}

interface Measurement {
  lcp: number;
  element: string;
  text: string;
  domContentLoaded: number;
  load: number;
  scripts: { url: string; bytes: number }[];
  apiCalls: { url: string; ms: number }[];
  dashboardRows: number;
}

async function measure(context: BrowserContext, url: string, answers: Answers): Promise<Measurement> {
  const page = await context.newPage();
  page.on('response', (response) => {
    const name = `${response.request().method()} ${new URL(response.url()).pathname} (page load)`;
    // A cached file the browser revalidated (304) was answered too.
    if (response.status() === 304) answers.outcome(name, true);
    else answers.http(name, response.status(), response.statusText());
  });
  const scripts: { url: string; bytes: number }[] = [];
  const apiCalls: { url: string; ms: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: new URL(response.url()).pathname, bytes: body.length });
  });
  const finished: { url: string; startTime: number; responseEnd: number }[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/dashboard/')) return;
    const timing = request.timing();
    finished.push({
      url: `${url.pathname}${url.search}`,
      startTime: timing.startTime,
      responseEnd: timing.responseEnd,
    });
  });
  await page.goto(`${url}/`, { waitUntil: 'networkidle' });
  // LCP candidates stop at the first input; nothing else arrives after the network is quiet and a pause.
  await page.waitForTimeout(1000);
  const entries = (await page.evaluate('window.__lcp')) as LcpEntry[];
  const nav = (await page.evaluate(
    `(() => { const n = performance.getEntriesByType('navigation')[0]; return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd }; })()`,
  )) as { dcl: number; load: number };
  const dashboardRows = await page.locator('table tbody tr').count();
  const origin = (await page.evaluate('performance.timeOrigin')) as number;
  for (const f of finished) apiCalls.push({ url: f.url, ms: f.startTime + f.responseEnd - origin });
  await page.close();
  const last = entries.at(-1);
  return {
    lcp: last?.time ?? Number.NaN,
    element: last?.element ?? '-',
    text: last?.text ?? '',
    domContentLoaded: nav.dcl,
    load: nav.load,
    scripts,
    apiCalls,
    dashboardRows,
  };
}

/** The scripts index.html names (module entry and modulepreloads), fetched and gzipped here. */
async function initialJavaScript(url: string, session: Session, answers: Answers) {
  const index = await get(`${url}/`, { cookie: session.cookie, accept: 'text/html' });
  answers.http('GET /', index.status, index.body);
  const html = index.body;
  const sources = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (m[1]) sources.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) if (m[1]) sources.add(m[1]);
  const files: { url: string; raw: number; gzip: number }[] = [];
  for (const src of sources) {
    const res = await get(new URL(src, url).toString());
    if (!answers.http(`GET ${src}`, res.status, res.body)) continue;
    const body = res.raw;
    files.push({ url: src, raw: body.length, gzip: gzipSync(body).length });
  }
  return files;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  if (!(await readMarker().catch(() => null))) {
    throw new Error('the benchmark database is not seeded: run npx tsx bench/dashboard/seed.ts');
  }
  await buildIfWanted();
  const answers = new Answers();
  const server = await startServer(answers);
  let browser: Browser | undefined;
  try {
    const session = await signIn(server.url, BENCH_ACCOUNTS.providerAdmin(1));
    const files = await initialJavaScript(server.url, session, answers);
    browser = await chromium.launch({ executablePath: SETTINGS.chromium, headless: true, args: CHROMIUM_FLAGS });
    const newContext = async () => {
      const context = await (browser as Browser).newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript(OBSERVER);
      await context.addCookies([{ name: 'portal_session', value: session.token, url: server.url }]);
      return context;
    };
    // One throwaway run: the server's first answers (JIT, query plans, caches) are not a user's.
    await measure(await newContext(), server.url, answers);
    const cold: Measurement[] = [];
    let context: BrowserContext | undefined;
    for (let i = 0; i < SETTINGS.lcpRuns; i++) {
      await context?.close();
      context = await newContext();
      cold.push(await measure(context, server.url, answers));
    }
    const warm: Measurement[] = [];
    for (let i = 0; i < SETTINGS.lcpRuns; i++) if (context) warm.push(await measure(context, server.url, answers));
    await context?.close();
    if (!answers.verdict('Dashboard page')) return;

    const rows = (label: string, list: Measurement[]) => {
      const s = summarise(list.map((m) => m.lcp));
      const dcl = summarise(list.map((m) => m.domContentLoaded));
      return [
        label,
        String(s.n),
        s.p50.toFixed(0),
        s.max.toFixed(0),
        dcl.p50.toFixed(0),
        s.max < LCP_TARGET_MS ? 'ok' : 'MISSED',
      ];
    };
    console.log(`\nLargest contentful paint of '/' (provider admin, ${SETTINGS.lcpRuns} runs each, loopback), ms:`);
    console.log(
      table([
        ['navigation', 'runs', 'LCP median', 'LCP max', 'DOMContentLoaded median', `< ${LCP_TARGET_MS}`],
        rows('cold (new context, empty cache)', cold),
        rows('warm (scripts cached)', warm),
      ]),
    );
    const sample = cold.at(-1);
    if (sample) {
      console.log(
        `LCP element: ${sample.element} "${sample.text}"; dashboard table rows on the page: ${sample.dashboardRows}`,
      );
      if (sample.apiCalls.length > 0) {
        console.log('Dashboard calls of the cold page load (response end, ms after navigation start):');
        for (const c of sample.apiCalls) console.log(`  ${c.ms.toFixed(0).padStart(5)}  ${c.url}`);
      } else {
        console.log('The page made no /dashboard/ calls.');
      }
      const loaded = sample.scripts.reduce((sum, s) => sum + s.bytes, 0);
      console.log(`JavaScript the cold page load fetched: ${sample.scripts.length} files, ${kb(loaded)} raw`);
    }
    const raw = files.reduce((sum, f) => sum + f.raw, 0);
    const gzip = files.reduce((sum, f) => sum + f.gzip, 0);
    console.log(`\nInitial JavaScript (scripts named by index.html, gzip level 6 by zlib):`);
    console.log(
      table([
        ['file', 'raw', 'gzip'],
        ...files.map((f) => [f.url, kb(f.raw), kb(f.gzip)]),
        ['total', kb(raw), kb(gzip)],
      ]),
    );
    const lcpOk = cold.every((m) => m.lcp < LCP_TARGET_MS);
    const jsOk = gzip <= JS_TARGET_BYTES;
    console.log(
      `\nLCP < ${LCP_TARGET_MS} ms: ${lcpOk ? 'ok' : 'MISSED'}; initial JS <= ${kb(JS_TARGET_BYTES)} gzip: ${jsOk ? 'ok' : 'MISSED'} (${kb(gzip)})`,
    );
    console.log(`HTTP ${answers.statusLine()}`);
    if (!lcpOk || !jsOk) process.exitCode = 1;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
