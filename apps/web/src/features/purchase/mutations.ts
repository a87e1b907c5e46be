import { type PackagePurchasePayload, type PackageUpgradePayload, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';

/** POST /admin/backuppackages (000 §7): answers the invoice to pay, if any; refreshes what the page names. */
export const usePurchasePackage = (refreshes: readonly Refresh[]) =>
  useApiMutation({
    request: (payload: PackagePurchasePayload) => call(ROUTES.purchase.purchase, {}, payload),
    refreshes: () => refreshes,
  });

/** PUT /admin/backuppackages/{id}/upgrade (000 §7): answers the invoice to pay, if any. */
export const useUpgradePackage = (packageId: number, refreshes: readonly Refresh[]) =>
  useApiMutation({
    request: (payload: PackageUpgradePayload) => call(ROUTES.purchase.upgrade, { packageId }, payload),
    refreshes: () => refreshes,
  });
