// The agent overhead benchmark (bench/README.md): the agent's restic engine against bare restic on the
// same 10,000 files / 1 GB. Set BENCH_AGENT=0 to leave it out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_AGENT === '0') {
  console.log('Agent overhead benchmark skipped (BENCH_AGENT=0).');
} else {
  console.log('\n=== Agent overhead: agent engine against bare restic ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/agent/overhead.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
