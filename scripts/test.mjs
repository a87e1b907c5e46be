// npm test: every tier (lint, types beside the build and the unit/integration/component tests, the first
// page's JavaScript budget, browser journeys), then each phase's wall time, the 15 slowest test files and one
// closing line 'N passed, N failed' that CI reads.
// The database tiers are the test files whose outcome depends on the database and Redis the environment points at
// (named `*.db.test.ts`; testing/database.ts refuses to open a database for any other). CI runs them a second time
// on PostgreSQL and Redis, beside the journeys (DATABASE_TIERS_URL, DATABASE_TIERS_REDIS_URL); `npm test --
// --database-tiers` runs only them, on DATABASE_URL and REDIS_URL. Everything else would only repeat the first pass.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ensureDependencies, root, run } from './lib.mjs';
import { onPinnedNode } from './node-runtime.mjs';

await onPinnedNode();
await ensureDependencies();
const startedAt = Date.now();
const reports = mkdtempSync(join(tmpdir(), 'portal-test-'));
const tally = { passed: 0, failed: 0, skipped: 0 };
/** Each phase's wall time, printed at the end beside its allowance (seconds on CI's 2-core machine). */
const phases = [];
/** Every test file's duration, for the slowest 15. */
const files = [];
let exitCode = 0;

/**
 * Runs one phase, timed. `must`: a failure stops npm test at once (nothing after it would mean anything).
 * A phase that passes its allowance is named in a warning: CI's budget is 25 minutes for both passes.
 */
async function phase(label, allowanceSeconds, command, args, { must = false, ...options } = {}) {
  const started = Date.now();
  const code = await run(command, args, options);
  phases.push({ label, seconds: (Date.now() - started) / 1000, allowanceSeconds, code });
  if (code !== 0 && must) {
    console.error(`\n${label} failed (exit code ${code}).`);
    report();
    process.exit(code);
  }
  return code;
}

function failWith(code) {
  if (code !== 0 && exitCode === 0) exitCode = code;
}

let vitestRuns = 0;

/**
 * Runs vitest with a JSON report, and counts its tests and file durations. `env` replaces the environment;
 * `outputFile` takes its console output instead of the terminal (printed by the caller); `suffix` follows its file
 * names in the slowest files.
 */
async function vitest(label, allowanceSeconds, args, { env, outputFile, suffix = '' } = {}) {
  vitestRuns += 1;
  const output = join(reports, `vitest-${vitestRuns}.json`);
  const log = outputFile ? openSync(outputFile, 'w') : null;
  const code = await phase(
    label,
    allowanceSeconds,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    { ...(env ? { env } : {}), ...(log === null ? {} : { stdio: ['ignore', log, log] }) },
  );
  if (log !== null) closeSync(log);
  if (existsSync(output)) {
    const result = JSON.parse(readFileSync(output, 'utf8'));
    tally.passed += result.numPassedTests;
    tally.failed += result.numFailedTests;
    tally.skipped += result.numPendingTests + result.numTodoTests;
    for (const file of result.testResults) {
      files.push({ name: `${relative(root, file.name)}${suffix}`, seconds: (file.endTime - file.startTime) / 1000 });
    }
  }
  failWith(code);
}

// Run once, in the first pass. The S3 proofs on Ceph RGW test the storage service's side (policies, keys, restic
// and rclone on buckets); the queries they make are the ones the other server tests run on PostgreSQL. The outage,
// shutdown and multi-instance drills start PostgreSQL and Redis of their own whatever the environment points at, so a
// second pass would only repeat them.
const FIRST_PASS_ONLY = [
  '**/*-s3*.test.ts',
  '**/storage-locations/machine-keys.db.test.ts',
  '**/resilience/outage.db.test.ts',
  '**/resilience/shutdown.db.test.ts',
  '**/resilience/multi-instance.db.test.ts',
].flatMap((pattern) => ['--exclude', pattern]);

// The bench project's database tests are the short forms of benchmarks that need PostgreSQL (they skip without it).
const DATABASE_TIERS = [
  '--project',
  'server',
  '--project',
  'agent',
  '--project',
  'bench',
  ...FIRST_PASS_ONLY,
  '.db.test.ts',
];

if (process.argv.includes('--database-tiers')) {
  await vitest('database tests (server, agent, bench)', 600, DATABASE_TIERS);
  finish();
}

await phase('lint', 60, 'npm', ['run', 'lint'], { must: true });
// Pinned versions, lockfile in step, every install script reviewed (scripts/check-supply.mjs).
await phase('supply chain', 30, 'npm', ['run', 'check:supply'], { must: true });
// The type check keeps one core busy for a minute and a half: it runs beside the build and every Vitest project,
// which leave a core partly idle while their tests wait on databases, restic and servers. Its failure stops npm test
// before the journeys.
const typecheck = phase('typecheck', 150, 'npm', ['run', 'typecheck']);
// Built before the tests: the tests that need the agent's build use this one (apps/agent/src/built-agent.ts).
const build = await phase('build', 180, 'npm', ['run', 'build']);
if (build !== 0) {
  console.error(`\nbuild failed (exit code ${build}).`);
  await typecheck;
  report();
  process.exit(build);
}
// Coverage is measured for the domain only (it holds every rule; 95 % of its lines at least): the other projects run
// without the instrumentation.
await vitest('domain (with coverage)', 60, ['--project', 'domain', '--coverage']);
await vitest('server, agent, web, bench', 780, [
  '--project',
  'server',
  '--project',
  'agent',
  '--project',
  'web',
  '--project',
  'bench',
]);
const typecheckCode = await typecheck;
if (typecheckCode !== 0) {
  console.error(`\ntypecheck failed (exit code ${typecheckCode}).`);
  report();
  process.exit(typecheckCode);
}
// The first page's JavaScript against its budget: a size of the build just made, not a timing.
const initialJs = await phase('first page budget', 15, 'node', ['bench/initial-js.mjs']);
if (initialJs === 0) tally.passed += 1;
else tally.failed += 1;
failWith(initialJs);

// CI's second pass (DATABASE_TIERS_URL and DATABASE_TIERS_REDIS_URL: a PostgreSQL database and Redis): the database
// tiers run beside the journeys, which leave about a third of the two cores idle while their browser, server and
// agents wait on one another. Their output is printed after the journeys' so that neither is interleaved.
const tiersLog = join(reports, 'database-tiers.log');
const tiers = process.env.DATABASE_TIERS_URL
  ? vitest('database tests on PostgreSQL and Redis (beside the journeys)', 600, DATABASE_TIERS, {
      env: {
        ...process.env,
        DATABASE_URL: process.env.DATABASE_TIERS_URL,
        REDIS_URL: process.env.DATABASE_TIERS_REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
      outputFile: tiersLog,
      suffix: ' (PostgreSQL)',
    })
  : null;
const e2eReport = join(reports, 'playwright.json');
const e2e = await phase('journeys', 540, 'npx', ['playwright', 'test', '--reporter=list,json'], {
  cwd: join(root, 'e2e'),
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
});
if (tiers) {
  await tiers;
  console.log('\n=== database tests on PostgreSQL and Redis ===');
  if (existsSync(tiersLog)) process.stdout.write(readFileSync(tiersLog, 'utf8'));
}
if (existsSync(e2eReport)) {
  const result = JSON.parse(readFileSync(e2eReport, 'utf8'));
  tally.passed += result.stats.expected + result.stats.flaky;
  tally.failed += result.stats.unexpected;
  tally.skipped += result.stats.skipped;
  for (const spec of journeyFiles(result.suites)) files.push(spec);
}
failWith(e2e);
finish();

/** A journey file's time: the sum of its tests' runs (a file's tests run in one worker). */
function journeyFiles(suites) {
  const byFile = new Map();
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      const seconds = spec.tests.flatMap((test) => test.results).reduce((sum, r) => sum + r.duration / 1000, 0);
      const name = `e2e/tests/${spec.file}`;
      byFile.set(name, (byFile.get(name) ?? 0) + seconds);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of suites ?? []) visit(suite);
  return [...byFile].map(([name, seconds]) => ({ name, seconds }));
}

function report() {
  const pad = Math.max(...phases.map((p) => p.label.length));
  console.log('\nPhase timings (wall time / allowance):');
  for (const p of phases) {
    const over = p.seconds > p.allowanceSeconds ? '  ⚠ over its allowance' : '';
    console.log(`  ${p.label.padEnd(pad)}  ${p.seconds.toFixed(0).padStart(5)} s / ${p.allowanceSeconds} s${over}`);
  }
  // Wall time: the type check runs beside the build and the Vitest projects.
  const total = (Date.now() - startedAt) / 1000;
  console.log(`  ${'total'.padEnd(pad)}  ${total.toFixed(0).padStart(5)} s`);
  if (files.length > 0) {
    console.log('\nSlowest test files:');
    for (const file of files.sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
      console.log(`  ${file.seconds.toFixed(1).padStart(6)} s  ${file.name}`);
    }
  }
  for (const p of phases.filter((p) => p.seconds > p.allowanceSeconds)) {
    console.warn(`warning: ${p.label} took ${p.seconds.toFixed(0)} s, over its allowance of ${p.allowanceSeconds} s`);
  }
}

function finish() {
  report();
  if (exitCode !== 0 && tally.failed === 0) tally.failed = 1;
  console.log(`\n${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
  process.exit(exitCode);
}
