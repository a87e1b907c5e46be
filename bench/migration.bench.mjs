// The migration throughput benchmark (issue 16): the portal's migration sync at ≥ 80 % of bare `rclone sync`.
// Set BENCH_MIGRATION=0 to leave it out of `npm run bench`; BENCH_MIGRATION_MB / _FILES for a smaller run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_MIGRATION === '0') {
  console.log('Migration benchmark skipped (BENCH_MIGRATION=0).');
} else {
  console.log('\n=== Migration throughput: portal migration sync vs bare rclone sync ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/migration/run.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
