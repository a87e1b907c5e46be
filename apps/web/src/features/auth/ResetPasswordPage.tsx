import { MESSAGES, resetPasswordSchema } from '@portal/domain';
import { Alert, Button, Form } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { GlobalErrors, TextField, useSubmitForm } from '../../ui';
import { useResetPassword } from './mutations';
import { PublicLayout } from './PublicLayout';

type ResetForm = z.infer<typeof resetPasswordSchema>;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const { field, onSubmit, submitting, globalErrors } = useSubmitForm({
    schema: resetPasswordSchema,
    defaults: (): ResetForm => ({ token: params.get('token') ?? '', password: '', confirmPassword: '' }),
    mutation: useResetPassword(),
    variables: (payload) => payload,
    fieldNames: ['password', 'confirmPassword'],
    partialText: MESSAGES.passwordResetWithErrors,
    unknownErrorText: MESSAGES.unknownWhileResettingPassword,
    onOutcome: (outcome) => {
      if (outcome.kind === 'success') window.location.assign('/login?reset');
    },
  });
  if (!params.get('token')) {
    return (
      <PublicLayout title="Choose a new password">
        <Alert variant="danger">{MESSAGES.resetLinkInvalid}</Alert>
        <Link to="/forgot-password">Ask for a new link</Link>
      </PublicLayout>
    );
  }
  return (
    <PublicLayout title="Choose a new password">
      <Form noValidate onSubmit={onSubmit}>
        <TextField {...field} name="password" label="New password" type="password" autoComplete="new-password" />
        <TextField
          {...field}
          name="confirmPassword"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
        />
        <GlobalErrors messages={globalErrors} />
        <Button type="submit" className="w-100 mt-2" disabled={submitting}>
          Set new password
        </Button>
      </Form>
      <div className="mt-3 small">
        <Link to="/forgot-password">Ask for a new link</Link>
      </div>
    </PublicLayout>
  );
}
