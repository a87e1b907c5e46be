import { spawnSync } from 'node:child_process';

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
