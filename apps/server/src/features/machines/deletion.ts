import type { RepositoryRemoval } from '../local-storage/removal.js';
import type { MachinesRepo } from './repo.js';

/** How many marked machines one pass looks at before it looks again. */
const BATCH = 50;

/**
 * The asynchronous part of a machine's deletion (001 §4 'is being deleted', DESIGN §8): the machine was
 * marked being_deleted by the request (its agent refused from then on); this removes its repository from
 * the storage, then its rows (tasks, runs, snapshots, messages and log files go with it), through the
 * backup-state service so the dashboard's counters follow. Every step can run again, so a deletion that
 * stops half-way (a restart) is done again by the next pass, and two instances doing the same machine at
 * once only repeat each other's work.
 */
export function createMachineDeletion(deps: {
  repo: Pick<MachinesRepo, 'pendingDeletions' | 'machinePlaces'>;
  removal: Pick<RepositoryRemoval, 'removeWith'>;
  /** Deletes the machine's row and what hangs off it; false when it is already gone. */
  deleteRows: (machineId: number) => Promise<boolean>;
}) {
  async function removeMachine(machineId: number): Promise<boolean> {
    const places = await deps.repo.machinePlaces(machineId);
    if (places.length === 0) return false;
    return deps.removal.removeWith(places, () => deps.deleteRows(machineId));
  }

  return {
    removeMachine,

    /** Deletes every machine marked for deletion; returns how many. Each machine is tried once a pass. */
    async runPending(): Promise<number> {
      const tried = new Set<number>();
      let deleted = 0;
      for (;;) {
        const ids = (await deps.repo.pendingDeletions(BATCH + tried.size)).filter((id) => !tried.has(id));
        if (ids.length === 0) return deleted;
        for (const id of ids) {
          tried.add(id);
          if (await removeMachine(id)) deleted++;
        }
      }
    },
  };
}

export type MachineDeletion = ReturnType<typeof createMachineDeletion>;
