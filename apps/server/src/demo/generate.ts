import type { MachineStatus, PackageStatus } from '@portal/domain';
import type { OsEntry } from './context.js';
import type { Random } from './random.js';

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
