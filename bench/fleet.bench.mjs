// The fleet benchmark (bench/README.md): 20,000 agent connections on one server process next to a bare
// `ws` server (memory per connection), and the browser → agent → browser command round trip at 1,000
// commands/s with 5,000 agents. Set BENCH_FLEET=0 to leave it out of `npm run bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.env.BENCH_FLEET === '0') {
  console.log('Fleet benchmark skipped (BENCH_FLEET=0).');
} else {
  console.log('\n=== Fleet: agent connections (memory) and command round trip ===');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fleet/run.ts'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) process.exitCode = 1;
}
