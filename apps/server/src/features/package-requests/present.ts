import { type AvailableStorageItems, type MyPackageRequestRow, type PackageRequestRow, ROUTES } from '@portal/domain';
import type { RequestRecord } from './repo.js';

/** A pending request's wire row (000 §3 'Package request'), with the approve and decline calls of its audience. */
export function presentRequest(request: RequestRecord, items: AvailableStorageItems | null): PackageRequestRow {
  const routes =
    request.parentResellerCustomerId === null ? ROUTES.packageRequests.provider : ROUTES.packageRequests.reseller;
  return {
    id: request.id,
    requestType: request.requestType,
    backupPackageName: request.backupPackageName,
    requestedBackupPackageName: request.requestedBackupPackageName,
    customerCompanyName: request.customerCompanyName,
    customerUsername: request.customerUsername,
    firstApprovalRequest: request.firstApprovalRequest,
    approveUrl: routes.approve.build({ requestId: request.id }),
    declineUrl: routes.decline.build({ requestId: request.id }),
    availableStorageItemsToLink: items,
  };
}

/** A customer's own request: what it asked for, its status and dates. */
export function presentMyRequest(request: RequestRecord): MyPackageRequestRow {
  return {
    id: request.id,
    requestType: request.requestType,
    status: request.status,
    backupPackageName: request.backupPackageName,
    requestedBackupPackageName: request.requestedBackupPackageName,
    createdAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt?.toISOString() ?? null,
  };
}
