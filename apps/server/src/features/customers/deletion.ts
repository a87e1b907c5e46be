import type { StorageAccess } from '../../storage/provider.js';
import { createRepositoryRemoval } from '../local-storage/removal.js';
import type { ReleasedLocation, StorageLocationService } from '../storage-locations/service.js';
import type { CustomersRepo } from './repo.js';

/** How long a server instance holds a customer it is deleting before another may take it over. */
export const DELETION_LEASE_MS = 10 * 60_000;

/**
 * The asynchronous part of a customer's deletion (002 §4.1, DESIGN §8): the customer was marked
 * being_deleted by the request (users signed out, machines refused); this removes its machines' stored
 * backups, then every row. Each step can run again (removing a removed folder or deleting deleted rows
 * does nothing), so an instance that stops half-way is simply followed by another once its lease ends.
 */
export function createCustomerDeletion(deps: {
  repo: Pick<CustomersRepo, 'claimDeletion' | 'machinePlaces' | 'deleteRows'>;
  /** The machines' repositories, reached with their storage locations' own keys. */
  storage: Pick<StorageAccess, 'machineRepositoryAccess'>;
  /** Closes a machine's live connection (its agent must not keep uploading into a folder being removed). */
  disconnectMachine: (machineId: number) => Promise<void>;
  /** The machine's own storage user at the service (issue 16). */
  removeMachineStorageUser: (machineId: number) => Promise<void>;
  /** The storage locations' users, keys and managed buckets, in the database and then at the service. */
  locations: Pick<StorageLocationService, 'releaseCustomerLocations' | 'cleanUpReleased'>;
  /** Told about a step that could not be done (a customer still blocked). */
  warn: (message: string, detail: Record<string, unknown>) => void;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  const removal = createRepositoryRemoval(deps);

  async function removeCustomer(customerId: number) {
    const places = await deps.repo.machinePlaces(customerId);
    let released: ReleasedLocation[] = [];
    const outcome = await removal.removeWith(places, () =>
      deps.repo.deleteRows(customerId, async (tx) => {
        released = await deps.locations.releaseCustomerLocations(tx, customerId);
      }),
    );
    if (outcome === 'blocked') deps.warn('customer still has customers of its own; deletion waits', { customerId });
    // After the commit: a failure here leaves users or a bucket at the service (logged), never half the rows.
    if (outcome === 'deleted') await deps.locations.cleanUpReleased(released);
    return outcome;
  }

  return {
    removeCustomer,

    /** Deletes every customer marked for deletion that no other instance holds; returns how many. */
    async runPending(): Promise<number> {
      let deleted = 0;
      for (;;) {
        const at = now();
        const customerId = await deps.repo.claimDeletion(at, new Date(at.getTime() + DELETION_LEASE_MS));
        if (customerId === null) return deleted;
        if ((await removeCustomer(customerId)) === 'deleted') deleted++;
      }
    },
  };
}

export type CustomerDeletion = ReturnType<typeof createCustomerDeletion>;
