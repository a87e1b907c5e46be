import { liveChannelConnectionFailedText, machineQueue, type RealtimeCommandView } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLiveChannel } from '../../app/live';
import { type CommandUpdate, useLiveOutput } from '../../app/useLiveOutput';
import { applyCommandUpdates, type DiagnosticsMachine, diagnosticsKeys, useRealtimeCommands } from './queries';

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

  // How many updates were heard when the list was last asked for.
  const askedAt = useRef(0);

  const reload = () => {
    askedAt.current = heard.current;
    void client.invalidateQueries({ queryKey: diagnosticsKeys.commands(machineId) });
  };

  const place = (updates: CommandUpdate[]) => {
    const key = diagnosticsKeys.commands(machineId);
    const current = client.getQueryData<{ elements: RealtimeCommandView[] }>(key);
    if (!current) return updates; // nothing read yet: applied once it is
    const applied = applyCommandUpdates(current, updates);
    if (applied.commands !== current) client.setQueryData(key, applied.commands);
    // Read again only for what was heard since the list was last asked for: a read that started after a
    // line was heard has it, so one that cannot place it means its command is gone.
    if (applied.held.length > 0 && heard.current > askedAt.current && client.isFetching({ queryKey: key }) === 0) {
      reload();
    }
    return applied.held;
  };

  const allowLoading = () => {
    askedAt.current = heard.current;
    setLoadable(true);
  };

  const { flush, reset, heard } = useLiveOutput({
    topic: show ? machineQueue('provider', machine.id) : null,
    place,
    failureText: liveChannelConnectionFailedText('BOLT_ADMIN_CUSTOMER_MACHINE'),
    // The re-subscription after a dropped connection reads the list again.
    onSubscribed: () => {
      if (loadable) reload();
      else allowLoading();
    },
    onFailure: () => {
      if (!loadable) allowLoading();
    },
  });

  // Each read that lands may place what was held (or show that it must be read again).
  useEffect(() => {
    if (show && commands.data && !commands.isFetching) flush();
  }, [show, commands.data, commands.isFetching, flush]);

  // Each opening starts afresh: waits for its own subscription, holds nothing, toasts a failure once.
  useEffect(() => {
    if (show) return;
    setLoadable(false);
    reset();
    askedAt.current = 0;
  }, [show, reset]);

  return commands;
}
