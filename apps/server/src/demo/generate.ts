import type { MachineStatus, PackageStatus, RunStatus } from '@portal/domain';
import type { OPERATING_SYSTEMS, Recipe } from './data.js';
import type { Random } from './random.js';

type OsEntry = (typeof OPERATING_SYSTEMS)[number];

/** A machine name as people give them: owner's MacBook, role-named Linux hosts, prefixed Windows PCs. */
export function machineName(
  rng: Random,
  os: OsEntry,
  prefix: string,
  owner: string,
  number: string,
  linuxRoles: readonly string[],
): string {
  if (os.family === 'MAC') return `${owner}-MacBook-${number}`;
  if (os.family === 'LINUX') return `${prefix.toLowerCase()}-${rng.pick(linuxRoles)}-${number}`;
  return os.server ? `${prefix}-SRV-${number}` : `${prefix}-${rng.pick(['LT', 'PC', 'WS'])}-${number}`;
}

/**
 * A machine's status in its package: a stopped package shows on every machine, otherwise drawn from the
 * weights. Only a package with a per-machine limit below its quota can have a machine over it.
 */
export function machineStatusIn(
  rng: Random,
  pkg: { status: PackageStatus; perMachineLimited: boolean },
  weights: readonly (readonly [MachineStatus, number])[],
): MachineStatus {
  if (pkg.status === 'OVER_QUOTA') return 'PACKAGE_OVER_QUOTA';
  if (pkg.status === 'SUSPENDED') return 'PACKAGE_SUSPENDED';
  if (pkg.status === 'BLOCKED') return 'BLOCKED';
  const status = rng.weighted(weights);
  return status === 'OVER_PER_MACHINE_QUOTA' && !pkg.perMachineLimited ? 'ACTIVE' : status;
}

/** The run a recipe's task has under way, if any. */
export const busyRunOf = (recipe: Recipe): RunStatus | null =>
  recipe === 'inProgressAfterSuccess' || recipe === 'inProgressAfterFailure'
    ? 'IN_PROGRESS'
    : recipe === 'initiatedFirst'
      ? 'INITIATED'
      : null;

/**
 * The finished runs of a recipe's task, oldest first: `older` runs, then the ones that give the recipe
 * its display status. `older` is called only for recipes that have finished runs.
 */
export function finishedRunsOf(rng: Random, recipe: Recipe, older: () => RunStatus[]): RunStatus[] {
  switch (recipe) {
    case 'success':
    case 'missed':
    case 'beingDeleted':
    case 'deletionFailed':
    case 'inProgressAfterSuccess':
      return [...older(), 'FINISHED_SUCCESS'];
    case 'warnings':
      return [...older(), 'FINISHED_WARNINGS'];
    case 'failed':
    case 'inProgressAfterFailure':
      return [...older(), 'FINISHED_SUCCESS', 'FAILED'];
    case 'paused':
      return [...older(), rng.chance(0.7) ? 'FINISHED_SUCCESS' : 'FAILED'];
    case 'never':
    case 'initiatedFirst':
    case 'awaitingSeed':
      return [];
  }
}
