// The bulk user import benchmark (bench/README.md): 1,000 rows within 30 s. Set BENCH_IMPORT=0 to leave it
// out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_IMPORT === '0') {
  console.log('Bulk user import benchmark skipped (BENCH_IMPORT=0).');
} else {
  console.log('\n=== Bulk user import: 1,000 rows ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/user-import/run.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
