import { type AdminAudience, type RequestApprovalPayload, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { requestKeys, requestRoutes } from './queries';

/** 000 §9: tables other than the templates' refresh 500 ms after a change. */
const listRefresh = (audience: AdminAudience): Refresh[] => [
  { queryKey: requestKeys.list(audience), afterMs: TIMINGS.tableRefreshMs },
];

/** PUT {approveUrl} (000 §7): storageItemId for new signups and additional packages, empty for changes. */
export const useApproveRequest = (audience: AdminAudience) =>
  useApiMutation({
    request: ({ requestId, payload }: { requestId: number; payload: RequestApprovalPayload }) =>
      call(requestRoutes(audience).approve, { requestId }, payload),
    refreshes: () => listRefresh(audience),
  });

/** PUT {declineUrl}, empty (000 §7). */
export const useDeclineRequest = (audience: AdminAudience) =>
  useApiMutation({
    request: (requestId: number) => call(requestRoutes(audience).decline, { requestId }),
    refreshes: () => listRefresh(audience),
  });
