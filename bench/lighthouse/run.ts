// Lighthouse performance and accessibility scores (issue 29 item 14, issue 31) of the sign-in page, the provider
// admin's dashboard and a customer's task page, mobile and desktop, on the built server in demo mode: each
// measurement runs BENCH_LIGHTHOUSE_RUNS times (3) in a fresh Chromium (empty cache) and the median is reported,
// with the load average beside it, since the machine is shared and Lighthouse's CPU timings follow what else runs.
// The accessibility audits that did not pass are named under the table. Every request of every page load is counted
// by status: one that is not 2xx (or an error the server logs) fails the run, and the summary is not printed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { Answers } from '../answers.js';
import { CHROMIUM_FLAGS } from '../chromium.js';
import { loadAverages } from '../machine.js';
import { measuredPages, startDemoServer } from './demo.js';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
/** Only these pages (sign-in, dashboard, task; comma-separated) and form factors (mobile, desktop), to compare one. */
const ONLY_PAGES = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',');
const ONLY_FORM_FACTORS = process.env.BENCH_LIGHTHOUSE_FORM_FACTORS?.split(',');
/** A folder to write each run's whole Lighthouse report to (JSON), for what the summary leaves out. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;

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
  /** Main-thread work (mainthread-work-breakdown) and the part of it spent running scripts (bootup-time). */
  mainThreadMs: number;
  scriptingMs: number;
  /** The scripts that cost the most main-thread time, 'file ms' (bootup-time's largest three). */
  costliestScripts: string[];
}

function costliestScripts(result: Result): string[] {
  const details = result.audits['bootup-time']?.details;
  const items = details && 'items' in details ? (details.items as { url: string; total: number }[]) : [];
  return [...items]
    .sort((a, b) => b.total - a.total)
    .slice(0, 3)
    .map((item) => `${item.url.replace(/^https?:\/\/[^/]+/, '')} ${item.total.toFixed(0)}`);
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
    mainThreadMs: numeric('mainthread-work-breakdown'),
    scriptingMs: numeric('bootup-time'),
    costliestScripts: costliestScripts(result),
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
    if (REPORTS_DIR) {
      mkdirSync(REPORTS_DIR, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${formFactor}-${Date.now()}.json`;
      writeFileSync(join(REPORTS_DIR, name), JSON.stringify(lhr));
    }
    countAnswers(lhr);
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
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const answers = new Answers();

/** Counts the status of every request of the page load (Lighthouse's network-requests audit). */
function countAnswers(result: Result): void {
  const details = result.audits['network-requests']?.details;
  const items = details && 'items' in details ? (details.items as { url: string; statusCode: number }[]) : [];
  for (const item of items) {
    if (item.url.startsWith('http')) answers.http(`GET ${new URL(item.url).pathname} (page load)`, item.statusCode);
  }
}

const server = process.env.BENCH_LIGHTHOUSE_URL ? null : await startDemoServer(answers);
const base = process.env.BENCH_LIGHTHOUSE_URL ?? server?.url ?? '';
try {
  const pages = (await measuredPages(base)).filter((page) => !ONLY_PAGES || ONLY_PAGES.includes(page.key));
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
    'main thread ms',
    'scripts ms',
    'load before',
    'load after',
  ];
  const rows: string[][] = [];
  const accessibilityFailures: string[] = [];
  for (const target of pages) {
    const formFactors = (['mobile', 'desktop'] as const).filter(
      (f) => !ONLY_FORM_FACTORS || ONLY_FORM_FACTORS.includes(f),
    );
    for (const formFactor of formFactors) {
      const before = loadAverages();
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
        pick((m) => m.mainThreadMs).toFixed(0),
        pick((m) => m.scriptingMs).toFixed(0),
        before,
        loadAverages(),
      ]);
      console.log(`| ${rows.at(-1)?.join(' | ')} |`);
      for (const m of runs) console.log(`  costliest scripts (ms): ${m.costliestScripts.join(', ')}`);
      const failed = [...new Set(runs.flatMap((m) => m.accessibilityFailures))];
      if (failed.length > 0) accessibilityFailures.push(`${target.name}, ${formFactor}: ${failed.join(', ')}`);
    }
  }
  await server?.stop();
  if (answers.verdict('Lighthouse')) {
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    console.log('\nAccessibility audits not passed:');
    for (const line of accessibilityFailures.length > 0 ? accessibilityFailures : ['none']) console.log(`- ${line}`);
    console.log(`HTTP ${answers.statusLine()}`);
  }
} finally {
  await server?.stop();
}
