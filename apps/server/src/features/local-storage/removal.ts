import { UnsafePathError } from './paths.js';
import { embeddedRepositoryDir, type MachinePlace } from './repo.js';
import { removeRepository } from './store.js';

/**
 * Removing machines' backups before their rows (DESIGN §8: customer and machine deletion): each machine's
 * agent is disconnected first (it must not keep uploading into a folder being removed), its repository
 * folder on the embedded storage removed, the rows deleted, and the folders removed once more, since an
 * upload the agent began before it was refused may have landed after the first pass. Every step can run
 * again, so a deletion that stops half-way is simply done again.
 */
export function createRepositoryRemoval(deps: {
  dataDir: string;
  disconnectMachine: (machineId: number) => Promise<void>;
  /** Told about a step that could not be done (a repository kept elsewhere). */
  warn: (message: string, detail: Record<string, unknown>) => void;
}) {
  /** The repository folders on the embedded storage; others (S3) are left to the storage clean-up. */
  function repositoryFolders(owner: Record<string, unknown>, places: MachinePlace[]): string[] {
    const folders: string[] = [];
    for (const place of places) {
      let folder: string | null = null;
      try {
        folder = embeddedRepositoryDir(deps.dataDir, place);
      } catch (error) {
        // A bucket or subfolder name no folder can have: nothing of it can be on the embedded storage.
        if (!(error instanceof UnsafePathError)) throw error;
      }
      if (folder === null)
        deps.warn('backup data not on the embedded storage is left in place', { ...owner, ...place });
      else folders.push(folder);
    }
    return folders;
  }

  return {
    async removeWith<T>(owner: Record<string, unknown>, places: MachinePlace[], deleteRows: () => Promise<T>) {
      for (const place of places) await deps.disconnectMachine(place.machineId);
      const folders = repositoryFolders(owner, places);
      for (const folder of folders) await removeRepository(folder);
      const outcome = await deleteRows();
      for (const folder of folders) await removeRepository(folder);
      return outcome;
    },
  };
}

export type RepositoryRemoval = ReturnType<typeof createRepositoryRemoval>;
