import { type forgotPasswordSchema, ROUTES, type resetPasswordSchema } from '@portal/domain';
import type { z } from 'zod';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';

/** POST /forgot-password: the same answer whether or not the address has an account. */
export const useRequestPasswordReset = () =>
  useApiMutation({
    request: (values: z.infer<typeof forgotPasswordSchema>) => call(ROUTES.auth.forgotPassword, {}, values),
    refreshes: () => [],
  });

/** POST /reset-password with the mailed token; the page then goes to sign-in. */
export const useResetPassword = () =>
  useApiMutation({
    request: (values: z.infer<typeof resetPasswordSchema>) => call(ROUTES.auth.resetPassword, {}, values),
    refreshes: () => [],
  });
