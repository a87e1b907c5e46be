import {
  type ResponseSummaryCode,
  ROUTES,
  TIMINGS,
  type UserAddPayload,
  type UserEditPayload,
  type UserImportPayload,
  type UserImportResult,
  type UserLinkPayload,
  userUrl,
} from '@portal/domain';
import { type ApiResult, call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { userKeys } from './queries';

/** 002 §9: the users list refreshes 500 ms after an action. */
export const USERS_LIST_REFRESH: Refresh = { queryKey: userKeys.list(), afterMs: TIMINGS.tableRefreshMs };

/**
 * After a change to one user on their page (only the customer's own admins change users, so it is the
 * customer audience's page): the summary and the users list at once, the user's packages and machines
 * 500 ms after (002 §9).
 */
function userPageRefreshes(userId: number): Refresh[] {
  const page = userKeys.page(userUrl('customer', { customerId: 0, userId }));
  return [
    { queryKey: [...page, 'summary'], afterMs: 0 },
    { queryKey: userKeys.list(), afterMs: 0 },
    { queryKey: page, afterMs: TIMINGS.tableRefreshMs },
  ];
}

/** The user dialog's two calls (002 §5.1): add, or edit one user (a blank password keeps it). */
export type UserSave =
  | { mode: 'add'; payload: UserAddPayload }
  | { mode: 'edit'; userId: number; payload: UserEditPayload };

/** POST /admin/account/users or PUT /admin/account/users/{id}: answers the user. */
export const useSaveUser = () =>
  useApiMutation({
    request: (save: UserSave) =>
      save.mode === 'add'
        ? call(ROUTES.users.add, {}, save.payload)
        : call(ROUTES.users.edit, { userId: save.userId }, save.payload),
    refreshes: (save) => (save.mode === 'add' ? [USERS_LIST_REFRESH] : userPageRefreshes(save.userId)),
  });

/** PUT /admin/account/users/{id}?link=true (002 §5.2): answers the user. */
export const useLinkPackage = () =>
  useApiMutation({
    request: ({ userId, payload }: { userId: number; payload: UserLinkPayload }) =>
      call(ROUTES.users.edit, { userId }, payload, { link: true }),
    refreshes: ({ userId }) => [...userPageRefreshes(userId), { queryKey: userKeys.linkable(userId), afterMs: 0 }],
  });

/** PUT /admin/account/users/{id}/backuppackages/{packageId}?unlink=true (001 §2). */
export const useUnlinkPackage = () =>
  useApiMutation({
    request: ({ userId, packageId }: { userId: number; packageId: number }) =>
      call(ROUTES.users.unlink, { userId, packageId }, undefined, { unlink: true }),
    refreshes: ({ userId }) => [...userPageRefreshes(userId), { queryKey: userKeys.linkable(userId), afterMs: 0 }],
  });

/** DELETE /admin/account/users/{id} (001 §2): the users list at once, as the page goes back to it. */
export const useDeleteUser = () =>
  useApiMutation({
    request: (userId: number) => call(ROUTES.users.remove, { userId }),
    refreshes: () => [{ queryKey: userKeys.list(), afterMs: 0 }],
  });

/** The import's summary code when rows without errors were saved and others refused (issue #6 contract). */
export const IMPORT_PARTLY_SAVED: ResponseSummaryCode = 'PROCESSING_FAILED';

/**
 * POST /admin/account/users/import, multipart file + skipAlreadyExisting (002 §5.3). Users were added
 * when it answers OK, and also on a conflict: the rows without errors were saved.
 */
export const useImportUsers = () =>
  useApiMutation({
    request: (payload: UserImportPayload) => {
      const body = new FormData();
      body.append('skipAlreadyExisting', String(payload.skipAlreadyExisting));
      body.append('file', payload.file as File);
      return call(ROUTES.users.import, {}, body);
    },
    applied: (answer: ApiResult<UserImportResult>) =>
      answer.ok || answer.envelope.responseSummaryCode === IMPORT_PARTLY_SAVED,
    refreshes: () => [USERS_LIST_REFRESH],
  });
