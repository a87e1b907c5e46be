// Shared by start.mjs and test.mjs: run a command, make sure dependencies are installed.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function mustRun(label, command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n${label} failed (exit code ${code}).`);
    process.exit(code);
  }
}

/** npm install when node_modules is missing or older than the lock file. */
export async function ensureDependencies() {
  const marker = join(root, 'node_modules/.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)...');
  await mustRun('npm ci', 'npm', ['ci', '--no-audit', '--no-fund']);
}

export function hasCommand(name) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, name)));
}
