// The dashboard benchmark's short form (issue 33: CI runs it, so a regression fails the tests): a small seed of its
// own (scale 0.01: 100 customers, 1,000 machines, 10,000 tasks; seeded once, again only when the migrations change)
// and 20 users per audience for a few seconds, HTTP beside bare SQL (load.ts --short). Fails on any error answer and
// when a call's HTTP median exceeds the short form's margin over the bare SQL's. Uses the existing build
// (BENCH_BUILD=0 unless set): the tests build first.
//
//   npx tsx bench/dashboard/short.ts
import { tsx } from '../suite.mjs';

const env = {
  BENCH_DATABASE_URL:
    process.env.BENCH_DASHBOARD_SHORT_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_dashboard_short',
  BENCH_SCALE: '0.01',
};
if ((await tsx('bench/dashboard/seed.ts', ['--if-needed'], env)) !== 0) {
  console.error('Seeding failed; the short dashboard benchmark stops here.');
  process.exit(1);
}
process.exitCode = await tsx('bench/dashboard/load.ts', ['--short'], {
  ...env,
  BENCH_ITERATIONS: process.env.BENCH_ITERATIONS || '25',
  BENCH_BUILD: process.env.BENCH_BUILD || '0',
  BENCH_SLOWEST: '0',
});
