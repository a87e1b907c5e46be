import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { agentSourceHash } from '../source-hash.mjs';

const here = import.meta.dirname;
const BUILD_SCRIPT = join(here, '../build.mjs');
/** A build taking longer than this was left by a run that died; the next one takes over. */
const STALE_BUILD_MS = 10 * 60_000;

const isBuildOf = (dir: string, hash: string) =>
  existsSync(join(dir, 'source-hash')) && readFileSync(join(dir, 'source-hash'), 'utf8') === hash;

/**
 * The agent built from today's sources (bundle, Linux x64 executable, installers), for the tests that need a
 * build: `npm run build`'s own apps/agent/dist when it is current (npm test builds first), else one build per
 * source hash in the temporary folder, made by the first test file that asks while the others wait for it. A
 * test must not change what it is given.
 */
export async function builtAgent(): Promise<string> {
  const hash = agentSourceHash();
  const own = join(here, '../dist');
  if (isBuildOf(own, hash)) return own;
  const shared = join(tmpdir(), `portal-agent-build-${hash}`);
  const lock = `${shared}.building`;
  for (;;) {
    if (isBuildOf(shared, hash)) return shared;
    try {
      mkdirSync(lock);
    } catch {
      const started = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - started > STALE_BUILD_MS) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      const partial = join(lock, 'dist');
      await promisify(execFile)(process.execPath, [BUILD_SCRIPT, partial]);
      rmSync(shared, { recursive: true, force: true });
      renameSync(partial, shared);
      return shared;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
