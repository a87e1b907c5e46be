import {
  liveChannelConnectionFailedText,
  MESSAGES,
  machineQueue,
  type RealtimeCommandView,
  readCommandResponse,
} from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveChannel, useLiveTopic } from '../../app/live';
import { toast } from '../../ui';
import {
  applyCommandUpdates,
  type CommandUpdate,
  type DiagnosticsMachine,
  diagnosticsKeys,
  useRealtimeCommands,
} from './queries';

/** How long streamed lines gather before they are shown (ours: ten redraws a second at most). */
const LIVE_FLUSH_MS = 100;

/**
 * The machine's realtime commands while the diagnostics dialog shows, their output following the provider's
 * machine queue (001 §4) with every line shown once and in order. The list is read only once the server has
 * the subscription in place, so a line published meanwhile is in what is read or heard afterwards (or both:
 * lines carry their number, and one already shown is skipped). A line after a missing one, or of a command
 * the list does not have, is held and the list read again; a confirmed re-subscription after a dropped
 * connection reads it again too. Without a live channel, or when it fails, the list is read at once.
 */
export function useLiveCommands(machine: DiagnosticsMachine, show: boolean) {
  const client = useQueryClient();
  const machineId = machine.id;
  const channel = useLiveChannel();
  const [loadable, setLoadable] = useState(false);
  const commands = useRealtimeCommands(machine, show && (loadable || channel === null));

  // Updates not yet shown; how many were heard this opening, and how many when the list was last asked for.
  const waiting = useRef<CommandUpdate[]>([]);
  const heard = useRef(0);
  const askedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const reload = useCallback(() => {
    askedAt.current = heard.current;
    void client.invalidateQueries({ queryKey: diagnosticsKeys.commands(machineId) });
  }, [client, machineId]);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const key = diagnosticsKeys.commands(machineId);
    const current = client.getQueryData<{ elements: RealtimeCommandView[] }>(key);
    if (!current) return; // nothing read yet: applied once it is
    const applied = applyCommandUpdates(current, waiting.current);
    waiting.current = applied.held;
    if (applied.commands !== current) client.setQueryData(key, applied.commands);
    // Read again only for what was heard since the list was last asked for: a read that started after a
    // line was heard has it, so one that cannot place it means its command is gone.
    if (applied.held.length > 0 && heard.current > askedAt.current && client.isFetching({ queryKey: key }) === 0) {
      reload();
    }
  }, [client, machineId, reload]);

  const allowLoading = () => {
    askedAt.current = heard.current;
    setLoadable(true);
  };

  // Each read that lands may place what was held (or show that it must be read again).
  useEffect(() => {
    if (show && commands.data && !commands.isFetching) flush();
  }, [show, commands.data, commands.isFetching, flush]);

  // Each opening starts afresh: waits for its own subscription, holds nothing, toasts a failure once.
  const failureShown = useRef(false);
  useEffect(() => {
    if (show) return;
    setLoadable(false);
    failureShown.current = false;
    waiting.current = [];
    heard.current = 0;
    askedAt.current = 0;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, [show]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useLiveTopic(
    show ? machineQueue('provider', machine.id) : null,
    (body) => {
      // null: reconnected. The re-subscription's confirmation reads the list again.
      if (body === null) return;
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
      onSubscribed: () => {
        if (loadable) reload();
        else allowLoading();
      },
      onFailure: () => {
        if (!loadable) allowLoading();
        if (failureShown.current) return;
        failureShown.current = true;
        toast.error(liveChannelConnectionFailedText('BOLT_ADMIN_CUSTOMER_MACHINE'));
      },
    },
  );

  return commands;
}
