import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, type PasswordChangeInput, passwordChangeSchema, type ServerMessage } from '@portal/domain';
import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { call } from '../../app/api';
import { GlobalErrors, handleSubmitResult, TextField } from '../../ui';
import { useInvalidateProfile } from './queries';

const FIELDS: Array<{ name: Path<PasswordChangeInput>; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'password', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm password', autoComplete: 'new-password' },
];

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '' };

export function PasswordChangeForm() {
  const invalidate = useInvalidateProfile();
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
  const form = useForm<PasswordChangeInput>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY });
  const { isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const outcome = await handleSubmitResult(call('PUT', '/profile/password', values), {
      successText: MESSAGES.passwordChanged,
      partialText: MESSAGES.passwordChangedWithErrors,
      unknownErrorText: MESSAGES.unknownWhileChangingPassword,
      form: { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.applied) {
      form.reset(EMPTY);
      await invalidate();
    }
  });
  return (
    <Form noValidate onSubmit={submit} aria-label="Change password">
      {FIELDS.map((field) => (
        <TextField
          key={field.name}
          form={form}
          idPrefix="password-"
          name={field.name}
          label={field.label}
          type="password"
          autoComplete={field.autoComplete}
        />
      ))}
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={isSubmitting} className="mt-2">
        Change password
      </Button>
    </Form>
  );
}
