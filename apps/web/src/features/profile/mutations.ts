import { type PasswordChangeInput, type ProfileInput, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { profileKeys } from './queries';

/** The profile page shows the change at once: its details and the account activity that records it. */
const PROFILE_REFRESH: readonly Refresh[] = [{ queryKey: profileKeys.all, afterMs: 0 }];

/** PUT /profile: the signed-in user's own details. */
export const useSaveProfile = () =>
  useApiMutation({
    request: (values: ProfileInput) => call(ROUTES.profile.update, {}, values),
    refreshes: () => PROFILE_REFRESH,
  });

/** PUT /profile/password: signs the user's other sessions out. */
export const useChangePassword = () =>
  useApiMutation({
    request: (values: PasswordChangeInput) => call(ROUTES.profile.changePassword, {}, values),
    refreshes: () => PROFILE_REFRESH,
  });
