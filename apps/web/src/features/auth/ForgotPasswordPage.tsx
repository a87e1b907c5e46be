import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema, MESSAGES } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { call } from '../../app/api';
import { GlobalErrors, handleSubmitResult, TextField } from '../../ui';
import { PublicLayout } from './PublicLayout';

type ForgotForm = z.infer<typeof forgotPasswordSchema>;

export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const [globalErrors, setGlobalErrors] = useState<Parameters<typeof GlobalErrors>[0]['messages']>([]);
  const form = useForm<ForgotForm>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const submit = form.handleSubmit(async (values) => {
    const outcome = await handleSubmitResult(call('POST', '/forgot-password', values), {
      partialText: MESSAGES.resetLinkRequestedWithErrors,
      unknownErrorText: MESSAGES.unknownWhileRequestingResetLink,
      form: { setError: form.setError, fieldNames: ['email'] },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.kind === 'success') setSent(true);
  });
  return (
    <PublicLayout title="Forgot password">
      {sent ? (
        <Alert variant="success" data-testid="reset-sent">
          {MESSAGES.resetMailSent}
        </Alert>
      ) : (
        <Form noValidate onSubmit={submit}>
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
