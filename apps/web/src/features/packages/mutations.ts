import { type AdminAudience, type PackageEditPayload, type PackageStatus, ROUTES, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { customerKeys } from '../customers/queries';
import { packageKeys } from './queries';

/** After a change of one package: its page at once, the package lists 500 ms after (as for machines). */
const packageRefreshes = (packageId: number): Refresh[] => [
  { queryKey: packageKeys.detail(packageId), afterMs: 0 },
  { queryKey: packageKeys.lists(), afterMs: TIMINGS.tableRefreshMs },
];

/** A package on a provider's or reseller's action path. */
export interface AdminPackageRef {
  audience: AdminAudience;
  customerId: number;
  packageId: number;
}

/**
 * The customer's page lists the package (status, and not once it is being deleted) and counts it: a
 * deletion goes straight back to that page, whose data may still be fresh enough not to be read again.
 */
const customerPageRefresh = ({ audience, customerId }: AdminPackageRef): Refresh => ({
  queryKey: customerKeys.customer(audience, customerId),
  afterMs: 0,
});

function actionCall(ref: AdminPackageRef, query: { status: PackageStatus } | { delete: true }) {
  if (ref.audience === 'provider')
    return call(ROUTES.packages.providerAction, { packageId: ref.packageId }, undefined, query);
  return call(
    ROUTES.packages.resellerAction,
    { customerId: ref.customerId, packageId: ref.packageId },
    undefined,
    query,
  );
}

/** PUT /admin/backuppackages/{id} (000 §7): name and maxBackupSizePerMachine. */
export const useEditPackage = () =>
  useApiMutation({
    request: ({ packageId, payload }: { packageId: number; payload: PackageEditPayload }) =>
      call(ROUTES.packages.edit, { packageId }, payload),
    refreshes: ({ packageId }) => packageRefreshes(packageId),
  });

/** PUT /admin/backuppackages/{id}?initialize=true: the owner names an APPROVED package. */
export const useInitializePackage = () =>
  useApiMutation({
    request: ({ packageId, name }: { packageId: number; name: string }) =>
      call(ROUTES.packages.edit, { packageId }, { name }, { initialize: true }),
    refreshes: ({ packageId }) => packageRefreshes(packageId),
  });

/** PUT …/backuppackages/{id}?status={newStatus} (000 §7). */
export const useChangePackageStatus = () =>
  useApiMutation({
    request: ({ status, ...ref }: AdminPackageRef & { status: PackageStatus }) => actionCall(ref, { status }),
    refreshes: (ref) => [
      ...packageRefreshes(ref.packageId),
      { queryKey: packageKeys.machines(ref.packageId), afterMs: TIMINGS.tableRefreshMs },
      customerPageRefresh(ref),
    ],
  });

/** PUT …/backuppackages/{id}?delete=true (000 §7): the package is being deleted. */
export const useDeletePackage = () =>
  useApiMutation({
    request: (ref: AdminPackageRef) => actionCall(ref, { delete: true }),
    refreshes: (ref) => [{ queryKey: packageKeys.lists(), afterMs: 0 }, customerPageRefresh(ref)],
  });
