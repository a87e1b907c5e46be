import { forgotPasswordSchema, MESSAGES } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { Link } from 'react-router';
import type { z } from 'zod';
import { GlobalErrors, TextField, useSubmitForm } from '../../ui';
import { useRequestPasswordReset } from './mutations';
import { PublicLayout } from './PublicLayout';

type ForgotForm = z.infer<typeof forgotPasswordSchema>;

export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const { field, onSubmit, submitting, globalErrors } = useSubmitForm({
    schema: forgotPasswordSchema,
    defaults: (): ForgotForm => ({ email: '' }),
    mutation: useRequestPasswordReset(),
    variables: (payload) => payload,
    fieldNames: ['email'],
    partialText: MESSAGES.resetLinkRequestedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileRequestingResetLink,
    onOutcome: (outcome) => {
      if (outcome.kind === 'success') setSent(true);
    },
  });
  return (
    <PublicLayout title="Forgot password">
      {sent ? (
        <Alert variant="success" data-testid="reset-sent">
          {MESSAGES.resetMailSent}
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit}>
          <p className="text-body-secondary small">Enter the e-mail address you sign in with.</p>
          <TextField
            {...field}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="Email is required"
          />
          <Button type="submit" className="w-100" disabled={submitting}>
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
