import type { RepositoryRemoval } from '../local-storage/removal.js';
import type { PackagesRepo } from './repo.js';

/** How long a server instance holds a package it is deleting before another may take it over. */
export const PACKAGE_DELETION_LEASE_MS = 10 * 60_000;

/**
 * The asynchronous part of a package's deletion (000 §4 'Backup package is being deleted', DESIGN §8): the
 * package and its machines were marked being_deleted by the request (agents refused from then on); this
 * removes every machine's repository from the storage, then the rows (the package, its machines and what
 * hangs off them) through the backup state so the dashboard's counters follow. Each step can run again,
 * so an instance that stops half-way is followed by another once its lease ends.
 */
export function createPackageDeletion(deps: {
  repo: Pick<PackagesRepo, 'claimDeletion' | 'machinePlaces' | 'markedForDeletion'>;
  removal: Pick<RepositoryRemoval, 'removeWith'>;
  /** Deletes the package's row and what hangs off it; false when it is already gone. */
  deleteRows: (packageId: number) => Promise<boolean>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function removePackage(packageId: number): Promise<boolean> {
    if (!(await deps.repo.markedForDeletion(packageId))) return false;
    const places = await deps.repo.machinePlaces(packageId);
    return deps.removal.removeWith(places, () => deps.deleteRows(packageId));
  }

  return {
    removePackage,

    /** Deletes every package marked for deletion that no other instance holds; returns how many. */
    async runPending(): Promise<number> {
      let deleted = 0;
      for (;;) {
        const at = now();
        const packageId = await deps.repo.claimDeletion(at, new Date(at.getTime() + PACKAGE_DELETION_LEASE_MS));
        if (packageId === null) return deleted;
        if (await removePackage(packageId)) deleted++;
      }
    },
  };
}

export type PackageDeletion = ReturnType<typeof createPackageDeletion>;
