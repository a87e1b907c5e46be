import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

/** A package on the provider's migration paths. */
export interface MigrationPackageRef {
  customerId: number;
  packageId: number;
}

export const migrationKeys = {
  all: ['migrations'] as const,
  list: (packageId: number) => [...migrationKeys.all, 'list', packageId] as const,
  destinations: (packageId: number) => [...migrationKeys.all, 'destinations', packageId] as const,
  detail: (migrationId: number) => [...migrationKeys.all, 'detail', migrationId] as const,
};

/** GET …/migrations (001 §7): every migration of the package at once, paged in the browser (001 §9). */
export const useMigrations = (ref: MigrationPackageRef) =>
  useRouteQuery(migrationKeys.list(ref.packageId), ROUTES.migrations.list, ref);

/** The create dialog's destinations: the customer's other locations. */
export const useMigrationDestinations = (ref: MigrationPackageRef, enabled: boolean) =>
  useRouteQuery(migrationKeys.destinations(ref.packageId), ROUTES.migrations.destinations, ref, { enabled });

/** One migration's page: summary, allowed actions and command sequences with their output. */
export const useMigration = (ref: MigrationPackageRef & { migrationId: number }) =>
  useRouteQuery(migrationKeys.detail(ref.migrationId), ROUTES.migrations.detail, ref, { retry: false });
