import {
  type FileSearchHit,
  type FileSearchOutcome,
  liveChannelConnectionFailedText,
  MESSAGES,
  machineQueue,
  readFileSearchUpdate,
} from '@portal/domain';
import { useRef, useState } from 'react';
import type { ApiResult } from '../../app/api';
import { liveSideOf, useLiveTopic } from '../../app/live';
import { newRequestId } from '../../app/requestId';
import { useSession } from '../../app/session';
import { toast } from '../../ui';
import { useStopFileSearch } from './mutations';

export interface FileSearchState {
  searchId: string | null;
  hits: FileSearchHit[];
  /** Null while the search runs (or before the first). */
  outcome: FileSearchOutcome | null;
  message: string | null;
  /** Why the search could not start (the server's or agent's message). */
  refusal: string | null;
}

const IDLE: FileSearchState = { searchId: null, hits: [], outcome: null, message: null, refusal: null };

/**
 * One search at a time on a machine (issue 31): its matches arrive on the machine's queue, for this user only,
 * and are kept in order; a new search replaces the last. The search starts once the server has the queue's
 * subscription in place (`ready`), so no match is published before the page listens.
 */
export function useFileSearch(machineId: number, active: boolean) {
  const { actor } = useSession();
  const [state, setState] = useState<FileSearchState>(IDLE);
  const [ready, setReady] = useState(false);
  const current = useRef<string | null>(null);
  const stopMutation = useStopFileSearch();

  useLiveTopic(
    actor && active ? machineQueue(liveSideOf(actor), machineId) : null,
    (body) => {
      if (body === null) return;
      const update = readFileSearchUpdate(body);
      if (!update || update.fileSearchId !== current.current) return;
      setState((before) =>
        update.kind === 'matches'
          ? { ...before, hits: [...before.hits, ...update.hits] }
          : { ...before, outcome: update.outcome, message: update.message },
      );
    },
    {
      onSubscribed: () => setReady(true),
      onFailure: () => toast.error(liveChannelConnectionFailedText('CUSTOMER_MACHINE')),
    },
  );

  /** Starts a search with `send` (the start or history call) under a new id. */
  async function start(send: (searchId: string) => Promise<ApiResult<unknown>>): Promise<void> {
    const searchId = newRequestId();
    current.current = searchId;
    setState({ ...IDLE, searchId });
    try {
      const answer = await send(searchId);
      if (answer.ok || current.current !== searchId) return;
      const refusal = answer.envelope.messages[0]?.message ?? MESSAGES.communicationError;
      setState((before) => ({ ...before, outcome: 'FAILED', refusal }));
    } catch {
      setState((before) => ({ ...before, outcome: 'FAILED', refusal: MESSAGES.communicationError }));
    }
  }

  function stop(): void {
    const searchId = current.current;
    if (searchId) stopMutation.mutate({ machineId, searchId });
  }

  const running = state.searchId !== null && state.outcome === null;
  return { ...state, ready, running, start, stop, reset: () => setState(IDLE) };
}
