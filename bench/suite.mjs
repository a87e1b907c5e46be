// What every `*.bench.mjs` shares: each benchmark runs in its own process under tsx from the repository root
// (so a crash or a leak in one leaves the others alone), and an environment variable set to 0 leaves it out.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs a script of the repository under tsx; resolves to its exit code (1 when a signal ended it).
 * @param {string} script @param {string[]} args @param {Record<string, string>} env
 * @returns {Promise<number>}
 */
export function tsx(script, args = [], env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs one benchmark unless `skipVariable` is 0: prints `heading`, then `run` prints its figures and resolves to
 * false when it failed, which fails `npm run bench` without stopping the benchmarks after it.
 * @param {{ skipVariable: string, name: string, heading: string, run: () => Promise<boolean> }} benchmark
 */
export async function benchmark({ skipVariable, name, heading, run }) {
  if (process.env[skipVariable] === '0') {
    console.log(`${name} benchmark skipped (${skipVariable}=0).`);
    return;
  }
  console.log(`\n=== ${heading} ===`);
  if (!(await run())) process.exitCode = 1;
}

/**
 * A benchmark that is one script of the repository.
 * @param {{ skipVariable: string, name: string, heading: string, script: string }} benchmark
 */
export function scriptBenchmark({ script, ...rest }) {
  return benchmark({ ...rest, run: async () => (await tsx(script)) === 0 });
}
