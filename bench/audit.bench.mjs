// The audit trail benchmark (bench/README.md): each audit page filter over a million records within 200 ms.
// Set BENCH_AUDIT=0 to leave it out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_AUDIT === '0') {
  console.log('Audit trail benchmark skipped (BENCH_AUDIT=0).');
} else {
  console.log('\n=== Audit trail: the pages over a million records ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/audit/run.ts'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
