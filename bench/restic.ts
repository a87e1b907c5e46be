import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The benchmarks' bare restic on one repository (no cache, output dropped, errors shown): `restic(args, cwd?)`
 * builds the repository a benchmark keeps between runs and times the baseline beside the portal's own calls.
 */
export function resticOn(repository: string, password: string) {
  return (args: string[], cwd?: string): void => {
    const result = spawnSync('restic', ['--no-cache', ...args], {
      env: { ...process.env, RESTIC_REPOSITORY: repository, RESTIC_PASSWORD: password },
      stdio: ['ignore', 'ignore', 'inherit'],
      ...(cwd ? { cwd } : {}),
    });
    if (result.status !== 0) throw new Error(`restic ${args[0]} failed (${result.status})`);
  };
}

/**
 * What a benchmark keeps between runs under `root` (its repository, made by `make` from an empty folder): marked
 * complete only once `make` returned, so a run stopped halfway makes it anew.
 */
export function keptUnder(root: string, make: () => void): void {
  const marker = join(root, '.complete');
  if (existsSync(marker)) return;
  rmSync(root, { recursive: true, force: true });
  make();
  writeFileSync(marker, '');
}
