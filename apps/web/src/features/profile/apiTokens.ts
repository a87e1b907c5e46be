import { type ApiTokenCreateInput, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';
import { type Refresh, useApiMutation } from '../../ui';
import { profileKeys } from './queries';

export const apiTokenKeys = { all: [...profileKeys.all, 'apiTokens'] as const };

/** The list and the account activity (which records creating and revoking) show a change at once. */
const TOKEN_REFRESH: readonly Refresh[] = [{ queryKey: profileKeys.all, afterMs: 0 }];

export const useApiTokens = () => useRouteQuery(apiTokenKeys.all, ROUTES.apiTokens.list, {});

/** POST /profile/apitokens: answers the token, shown this once. */
export const useCreateApiToken = () =>
  useApiMutation({
    request: (values: ApiTokenCreateInput) => call(ROUTES.apiTokens.create, {}, values),
    refreshes: () => TOKEN_REFRESH,
  });

/** DELETE /profile/apitokens/{id}. */
export const useRevokeApiToken = () =>
  useApiMutation({
    request: (tokenId: number) => call(ROUTES.apiTokens.revoke, { tokenId }),
    refreshes: () => TOKEN_REFRESH,
  });
