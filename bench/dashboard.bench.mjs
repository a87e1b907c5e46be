// The dashboard benchmark (bench/README.md): seed the large data set unless the database already holds
// it, then the load test (HTTP next to bare SQL) and the page test (LCP, initial JS), each in its own
// process run by tsx. Set BENCH_DASHBOARD=0 to leave it out of `npm run bench`.
import { benchmark, tsx } from './suite.mjs';

await benchmark({
  skipVariable: 'BENCH_DASHBOARD',
  name: 'Dashboard',
  heading: 'Dashboard benchmark: seed',
  run: async () => {
    if ((await tsx('bench/dashboard/seed.ts', ['--if-needed'])) !== 0) {
      console.error('Seeding failed; the dashboard benchmark stops here.');
      return false;
    }
    console.log('\n=== Dashboard benchmark: load (20 concurrent users) ===');
    const load = await tsx('bench/dashboard/load.ts');
    console.log('\n=== Dashboard benchmark: page (largest contentful paint, initial JavaScript) ===');
    // load.ts has built (unless BENCH_BUILD=0); the page test uses that build.
    const lcp = await tsx('bench/dashboard/lcp.ts', [], { BENCH_BUILD: '0' });
    return load === 0 && lcp === 0;
  },
});
