import {
  liveChannelConnectionFailedText,
  MESSAGES,
  migrationQueue,
  type PackageMigrationDetail,
  readCommandResponse,
} from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLiveTopic } from '../../app/live';
import { toast } from '../../ui';
import { applyCommandUpdates, type CommandUpdate } from '../diagnostics/queries';
import { type MigrationPackageRef, migrationKeys, useMigration } from './queries';

/** How long streamed lines gather before they are shown (as in restic diagnostics). */
const LIVE_FLUSH_MS = 100;

/**
 * A migration's page data, its command sequences' output following the migration's queue (001 §3, §7)
 * while the page is open. Lines are placed by their numbers (the diagnostics' rule); a finish, or a line
 * that cannot be placed (a sequence started elsewhere, a gap), reads the page again, since the server has
 * stored every line before sending it. A (re)confirmed subscription reads it again too.
 */
export function useLiveMigration(ref: MigrationPackageRef & { migrationId: number }) {
  const client = useQueryClient();
  const migration = useMigration(ref);
  const key = migrationKeys.detail(ref.migrationId);
  const waiting = useRef<CommandUpdate[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const failureShown = useRef(false);

  const reload = useCallback(() => void client.invalidateQueries({ queryKey: key }), [client, key]);

  const flush = useCallback(() => {
    timer.current = null;
    const updates = waiting.current;
    waiting.current = [];
    const current = client.getQueryData<PackageMigrationDetail>(key);
    if (!current) return;
    const applied = applyCommandUpdates({ elements: current.commandSequences }, updates);
    if (applied.commands.elements !== current.commandSequences) {
      client.setQueryData(key, { ...current, commandSequences: applied.commands.elements });
    }
    if (applied.held.length > 0 || updates.some((u) => u.kind === 'finished')) reload();
  }, [client, key, reload]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useLiveTopic(
    migrationQueue(ref.migrationId),
    (body) => {
      if (body === null) return; // reconnected: the confirmed re-subscription reads the page again
      const read = readCommandResponse(body);
      if (read.kind === 'raw') return;
      if (read.kind === 'invalid') {
        toast.error(MESSAGES.liveChannel.invalidMessage);
        return;
      }
      waiting.current.push(read);
      timer.current ??= setTimeout(flush, LIVE_FLUSH_MS);
    },
    {
      onSubscribed: reload,
      onFailure: () => {
        if (failureShown.current) return;
        failureShown.current = true;
        toast.error(liveChannelConnectionFailedText('BOLT_ADMIN_MIGRATION'));
      },
    },
  );

  return migration;
}
