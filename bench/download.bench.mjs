// The download throughput benchmark (issue 14): the portal's zip at ≥ 80 % of bare `restic dump`. Set
// BENCH_DOWNLOAD=0 to leave it out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_DOWNLOAD === '0') {
  console.log('Download benchmark skipped (BENCH_DOWNLOAD=0).');
} else {
  console.log('\n=== Download throughput: portal zip vs bare restic dump ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/download/run.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
