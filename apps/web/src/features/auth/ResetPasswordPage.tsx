import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, resetPasswordSchema, type ServerMessage } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { call } from '../../app/api';
import { GlobalErrors, handleSubmitResult, TextField } from '../../ui';
import { PublicLayout } from './PublicLayout';

type ResetForm = z.infer<typeof resetPasswordSchema>;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token: params.get('token') ?? '', password: '', confirmPassword: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    const outcome = await handleSubmitResult(call('POST', '/reset-password', values), {
      partialText: MESSAGES.passwordResetWithErrors,
      unknownErrorText: MESSAGES.unknownWhileResettingPassword,
      form: { setError: form.setError, fieldNames: ['password', 'confirmPassword'] },
    });
    setGlobalErrors(outcome.globalErrors);
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
      <Form noValidate onSubmit={submit}>
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
