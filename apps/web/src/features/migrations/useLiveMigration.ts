import { liveChannelConnectionFailedText, migrationQueue, type PackageMigrationDetail } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type CommandUpdate, useLiveOutput } from '../../app/useLiveOutput';
import { applyCommandUpdates } from '../diagnostics/queries';
import { type MigrationPackageRef, migrationKeys, useMigration } from './queries';

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

  const reload = useCallback(() => void client.invalidateQueries({ queryKey: key }), [client, key]);

  // Nothing is kept for the next flush: a reload brings whatever could not be placed.
  const place = (updates: CommandUpdate[]): CommandUpdate[] => {
    const current = client.getQueryData<PackageMigrationDetail>(key);
    if (!current) return [];
    const applied = applyCommandUpdates({ elements: current.commandSequences }, updates);
    if (applied.commands.elements !== current.commandSequences) {
      client.setQueryData(key, { ...current, commandSequences: applied.commands.elements });
    }
    if (applied.held.length > 0 || updates.some((u) => u.kind === 'finished')) reload();
    return [];
  };

  useLiveOutput({
    topic: migrationQueue(ref.migrationId),
    place,
    failureText: liveChannelConnectionFailedText('BOLT_ADMIN_MIGRATION'),
    onSubscribed: reload,
  });

  return migration;
}
