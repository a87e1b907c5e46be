import {
  type MigrationCreatePayload,
  type PackageMigrationDetail,
  ROUTES,
  type StorageAccountMigrationPayload,
  type SyncType,
  TIMINGS,
} from '@portal/domain';
import type { QueryClient } from '@tanstack/react-query';
import { type ApiResult, call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { packageKeys } from '../packages/queries';
import { type MigrationPackageRef, migrationKeys } from './queries';

export type MigrationRef = MigrationPackageRef & { migrationId: number };

/** Tables refresh 500 ms after a change (001 §9); a migration's own page takes its answer at once. */
const listRefresh = (ref: MigrationPackageRef) => ({
  queryKey: migrationKeys.list(ref.packageId),
  afterMs: TIMINGS.tableRefreshMs,
});

/** An answered migration replaces the page's data at once. */
const putDetail = (answer: ApiResult<PackageMigrationDetail>, ref: MigrationRef, client: QueryClient) => {
  const detail = answer.envelope.result;
  if (detail) client.setQueryData(migrationKeys.detail(ref.migrationId), detail);
};

/** POST …/migrations (001 §7: body destinationStorageLocationId). */
export const useCreateMigration = (ref: MigrationPackageRef) =>
  useApiMutation({
    request: (payload: MigrationCreatePayload) => call(ROUTES.migrations.create, ref, payload),
    refreshes: () => [listRefresh(ref)],
  });

/** PUT …/commandsequences (001 §7: body requestId, type). */
export const useSubmitSequence = (ref: MigrationRef) =>
  useApiMutation({
    request: (body: { requestId: string; type: SyncType }) => call(ROUTES.migrations.submit, ref, body),
    onApplied: (answer, _body, client) => putDetail(answer, ref, client),
    refreshes: () => [listRefresh(ref)],
  });

/** PUT …/commandsequences/stop (body commandId): its finish arrives over the migration's queue. */
export const useStopSequence = (ref: MigrationRef) =>
  useApiMutation({
    request: (commandId: string) => call(ROUTES.migrations.stop, ref, { commandId }),
    refreshes: () => [{ queryKey: migrationKeys.detail(ref.migrationId), afterMs: 0 }, listRefresh(ref)],
  });

/** PUT …/commandsequences/delete (body commandId). */
export const useDeleteSequence = (ref: MigrationRef) =>
  useApiMutation({
    request: (commandId: string) => call(ROUTES.migrations.remove, ref, { commandId }),
    refreshes: () => [{ queryKey: migrationKeys.detail(ref.migrationId), afterMs: 0 }],
  });

/** Cancel, roll back and finalise (001 §7 and ours): empty bodies, each answering the migration. */
export type MigrationActionRoute = 'cancel' | 'rollback' | 'finalize';
export const useMigrationAction = (ref: MigrationRef, route: MigrationActionRoute) =>
  useApiMutation({
    request: (_nothing: undefined) => call(ROUTES.migrations[route], ref),
    onApplied: (answer, _nothing, client) => putDetail(answer, ref, client),
    // Finalising moves the package: its page shows the new location.
    refreshes: () => [listRefresh(ref), { queryKey: packageKeys.detail(ref.packageId), afterMs: 0 }],
  });

/** POST /boltadmin/storageaccounts/{id}/migrations (001 §7: body destinationStorageAccountId). */
export const useMigrateStorageAccount = (storageAccountId: number) =>
  useApiMutation({
    request: (payload: StorageAccountMigrationPayload) =>
      call(ROUTES.migrations.storageAccount, { storageAccountId }, payload),
    refreshes: () => [{ queryKey: migrationKeys.all, afterMs: TIMINGS.tableRefreshMs }],
  });
