import { MESSAGES, type ReadCommandResponse, readCommandResponse } from '@portal/domain';
import { useCallback, useEffect, useRef } from 'react';
import { toast } from '../ui';
import { useLiveTopic } from './live';

/** A command response that changes a command: an output line or its finish. */
export type CommandUpdate = Extract<ReadCommandResponse, { kind: 'outputLine' | 'finished' }>;

/** How long streamed lines gather before they are shown (ours: ten redraws a second at most). */
const LIVE_FLUSH_MS = 100;

export interface LiveOutputOptions {
  /** The queue the output arrives on; null while nothing is followed. */
  topic: string | null;
  /** Shows the gathered updates and answers those it keeps for the next flush. */
  place: (updates: CommandUpdate[]) => CommandUpdate[];
  /** Toasted on the first failure of the subscription since the last reset. */
  failureText: string;
  onSubscribed: () => void;
  onFailure?: () => void;
}

/**
 * Command output followed live (restic diagnostics, migrations): the queue's lines and finishes are gathered
 * and handed to `place` at most every LIVE_FLUSH_MS, another screen's traffic on the queue is ignored, an
 * unreadable message and the first failure are toasted. `heard` counts the updates since the last reset.
 */
export function useLiveOutput({ topic, place, failureText, onSubscribed, onFailure }: LiveOutputOptions) {
  const waiting = useRef<CommandUpdate[]>([]);
  const heard = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const failureShown = useRef(false);
  const latestPlace = useRef(place);
  latestPlace.current = place;

  const stopTimer = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const flush = useCallback(() => {
    stopTimer();
    waiting.current = latestPlace.current(waiting.current);
  }, [stopTimer]);

  /** Starts afresh: holds nothing, counts from zero, toasts the next failure again. */
  const reset = useCallback(() => {
    stopTimer();
    waiting.current = [];
    heard.current = 0;
    failureShown.current = false;
  }, [stopTimer]);

  useEffect(() => stopTimer, [stopTimer]);

  useLiveTopic(
    topic,
    (body) => {
      if (body === null) return; // reconnected: the confirmed re-subscription reads again
      const read = readCommandResponse(body);
      if (read.kind === 'raw') return; // another screen's traffic on the same queue (a task command's reply)
      if (read.kind === 'invalid') {
        toast.error(MESSAGES.liveChannel.invalidMessage);
        return;
      }
      waiting.current.push(read);
      heard.current += 1;
      timer.current ??= setTimeout(flush, LIVE_FLUSH_MS);
    },
    {
      onSubscribed,
      onFailure: () => {
        onFailure?.();
        if (failureShown.current) return;
        failureShown.current = true;
        toast.error(failureText);
      },
    },
  );

  return { flush, reset, heard };
}
