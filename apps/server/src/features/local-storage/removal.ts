import { type FolderAt, removeFolder } from '../../storage/access.js';
import type { StorageAccess } from '../../storage/provider.js';
import { UnsafePathError } from './paths.js';
import type { MachinePlace } from './repo.js';

/**
 * Removing machines' backups before their rows (DESIGN §8: customer, package and machine deletion): each
 * machine's agent is disconnected first (it must not keep uploading into a folder being removed), its
 * repository removed with its storage location's own key (a folder of the embedded storage, or every object
 * under its prefix in a bucket), its own storage user removed at the service (issue 16; only the rows say
 * which user is the machine's, so before they go), the rows deleted, and the repositories removed once more, since an upload the
 * agent began before it was refused may have landed after the first pass. Every step can run again, so a
 * deletion that stops half-way is simply done again.
 */
export function createRepositoryRemoval(deps: {
  storage: Pick<StorageAccess, 'machineRepositoryAccess'>;
  disconnectMachine: (machineId: number) => Promise<void>;
  /** The machine's own storage user and keys at the service, and the bucket policy without it. */
  removeMachineStorageUser: (machineId: number) => Promise<void>;
}) {
  return {
    async removeWith<T>(places: MachinePlace[], deleteRows: () => Promise<T>) {
      for (const place of places) await deps.disconnectMachine(place.machineId);
      // Found while the rows still say where each repository is: the second pass needs them after.
      const folders: FolderAt[] = [];
      for (const place of places) {
        const folder = await deps.storage.machineRepositoryAccess(place.machineId).catch((error: unknown) => {
          // A bucket or subfolder name no folder can have: nothing of it can be on the embedded storage.
          if (error instanceof UnsafePathError) return null;
          throw error;
        });
        if (folder) folders.push(folder);
      }
      for (const folder of folders) await removeFolder(folder);
      for (const place of places) await deps.removeMachineStorageUser(place.machineId);
      const outcome = await deleteRows();
      for (const folder of folders) await removeFolder(folder);
      return outcome;
    },
  };
}

export type RepositoryRemoval = ReturnType<typeof createRepositoryRemoval>;
