import {
  type BackupItem,
  type BackupType,
  createTreeState,
  type ExclusionPlatform,
  MESSAGES,
  mergeChildren,
  ROUTES,
  setItemOpened,
  setRootItems,
  type TreeItem,
  type TreeState,
} from '@portal/domain';
import { useCallback, useRef, useState } from 'react';
import { CommunicationError, call } from '../../../app/api';
import { newRequestId } from '../../../app/requestId';
import { toast } from '../../../ui';

/**
 * A machine's item tree as a dialog holds it (002 §4.4, §7.8): the first level on `reset`, a folder's children
 * when it is first opened (lazy), through POST /backupmachines/{id}/treeitems, which asks the agent over the
 * live channel and answers within the 20 s reply time. The task's type goes with each request: a cPanel or
 * DirectAdmin task's tree is the panel's accounts. A failure or time-out toasts the server's message
 * ('Error in retrieving tree items from backup machine.'), and the first level then shows 'No items to
 * select'; no answer at all toasts 'Error in communicating with server.' (002 §8.3). Answers of an earlier
 * tree (before a reset) are dropped.
 */
export function useMachineTree(machineId: number, platform: ExclusionPlatform) {
  const [state, setState] = useState<TreeState>(() => createTreeState({ platform }));
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  const generation = useRef(0);
  const backupType = useRef<BackupType>('FILES_AND_FOLDERS');

  const fetchChildren = useCallback(
    async (path: string): Promise<TreeItem[] | null> => {
      try {
        const answer = await call(
          ROUTES.treeItems.list,
          { machineId },
          { treeItemsRequestId: newRequestId(), path, type: backupType.current },
        );
        if (answer.ok && answer.envelope.result) return answer.envelope.result.treeItems;
        const text = answer.envelope.messages[0]?.message ?? MESSAGES.liveChannel.treeItemsError;
        toast.error(text);
      } catch (error) {
        if (!(error instanceof CommunicationError)) throw error;
        toast.error(MESSAGES.communicationError);
      }
      return null;
    },
    [machineId],
  );

  /** Starts a new tree ('Loading...') of a task type with the task's exclusions and saved selection, and loads its first level. */
  const reset = useCallback(
    async (options: { type?: BackupType; exclusions?: readonly string[]; selection?: readonly BackupItem[] } = {}) => {
      generation.current += 1;
      backupType.current = options.type ?? 'FILES_AND_FOLDERS';
      const mine = generation.current;
      setLoading(new Set());
      setState(createTreeState({ platform, exclusions: options.exclusions ?? [], selection: options.selection ?? [] }));
      const items = await fetchChildren('');
      if (generation.current !== mine) return;
      setState((current) => setRootItems(current, items ?? []));
    },
    [fetchChildren, platform],
  );

  /** Opens or closes a folder; its children are asked for the first time it opens. */
  const open = useCallback(
    async (item: TreeItem, opened: boolean) => {
      setState((current) => setItemOpened(current, item.value, opened));
      if (!opened || item.leaf || item.children !== null) return;
      const mine = generation.current;
      setLoading((current) => new Set(current).add(item.value));
      const children = await fetchChildren(item.value);
      if (generation.current !== mine) return;
      setLoading((current) => {
        const next = new Set(current);
        next.delete(item.value);
        return next;
      });
      if (children !== null) setState((current) => mergeChildren(current, item.value, children));
      else setState((current) => setItemOpened(current, item.value, false));
    },
    [fetchChildren],
  );

  /** Forgets the tree (the dialog closed): answers still on their way are dropped. */
  const clear = useCallback(() => {
    generation.current += 1;
    setLoading(new Set());
    setState(createTreeState({ platform }));
  }, [platform]);

  return { state, setState, loading, reset, open, clear };
}
