import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, resetPasswordSchema } from '@portal/domain';
import { Alert, Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useResetPassword } from './mutations';
import { PublicLayout } from './PublicLayout';

type ResetForm = z.infer<typeof resetPasswordSchema>;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token: params.get('token') ?? '', password: '', confirmPassword: '' },
  });
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useResetPassword(),
    partialText: MESSAGES.passwordResetWithErrors,
    unknownErrorText: MESSAGES.unknownWhileResettingPassword,
    form: { setError: form.setError, fieldNames: ['password', 'confirmPassword'] },
  });
  const reset = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    if (outcome.kind === 'success') window.location.assign('/login?reset');
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
      <Form noValidate onSubmit={reset}>
        <TextField form={form} name="password" label="New password" type="password" autoComplete="new-password" />
        <TextField
          form={form}
          name="confirmPassword"
          label="Confirm password"
          type="password"
          autoComplete="new-password"
        />
        <GlobalErrors messages={globalErrors} />
        <Button type="submit" className="w-100 mt-2" disabled={form.formState.isSubmitting}>
          Set new password
        </Button>
      </Form>
      <div className="mt-3 small">
        <Link to="/forgot-password">Ask for a new link</Link>
      </div>
    </PublicLayout>
  );
}
