// The dashboard benchmark (bench/README.md): seed the large data set unless the database already holds
// it, then the load test (HTTP next to bare SQL) and the page test (LCP, initial JS), each in its own
// process run by tsx. Set BENCH_DASHBOARD=0 to leave it out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} script @param {string[]} args @param {Record<string, string>} env */
function tsx(script, args = [], env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/dashboard/${script}`, ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.env.BENCH_DASHBOARD === '0') {
  console.log('Dashboard benchmark skipped (BENCH_DASHBOARD=0).');
} else {
  console.log('\n=== Dashboard benchmark: seed ===');
  const seeded = await tsx('seed.ts', ['--if-needed']);
  if (seeded !== 0) {
    console.error('Seeding failed; the dashboard benchmark stops here.');
    process.exitCode = 1;
  } else {
    console.log('\n=== Dashboard benchmark: load (20 concurrent users) ===');
    const load = await tsx('load.ts');
    console.log('\n=== Dashboard benchmark: page (largest contentful paint, initial JavaScript) ===');
    // load.ts has built (unless BENCH_BUILD=0); the page test uses that build.
    const lcp = await tsx('lcp.ts', [], { BENCH_BUILD: '0' });
    if (load !== 0 || lcp !== 0) process.exitCode = 1;
  }
}
