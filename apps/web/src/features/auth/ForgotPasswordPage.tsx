import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema, MESSAGES } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useRequestPasswordReset } from './mutations';
import { PublicLayout } from './PublicLayout';

type ForgotForm = z.infer<typeof forgotPasswordSchema>;

export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const form = useForm<ForgotForm>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useRequestPasswordReset(),
    partialText: MESSAGES.resetLinkRequestedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileRequestingResetLink,
    form: { setError: form.setError, fieldNames: ['email'] },
  });
  const request = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    if (outcome.kind === 'success') setSent(true);
  });
  return (
    <PublicLayout title="Forgot password">
      {sent ? (
        <Alert variant="success" data-testid="reset-sent">
          {MESSAGES.resetMailSent}
        </Alert>
      ) : (
        <Form noValidate onSubmit={request}>
          <p className="text-body-secondary small">Enter the e-mail address you sign in with.</p>
          <TextField
            form={form}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="Email is required"
          />
          <Button type="submit" className="w-100" disabled={form.formState.isSubmitting}>
            Send reset link
          </Button>
          <GlobalErrors messages={globalErrors} />
        </Form>
      )}
      <div className="mt-3 small">
        <Link to="/login">Back to sign in</Link>
      </div>
    </PublicLayout>
  );
}
