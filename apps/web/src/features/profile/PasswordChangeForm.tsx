import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, type PasswordChangeInput, passwordChangeSchema } from '@portal/domain';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useChangePassword } from './mutations';

const FIELDS: Array<{ name: Path<PasswordChangeInput>; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'password', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm password', autoComplete: 'new-password' },
];

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '' };

export function PasswordChangeForm() {
  const form = useForm<PasswordChangeInput>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY });
  const { isSubmitting } = form.formState;
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useChangePassword(),
    successText: MESSAGES.passwordChanged,
    partialText: MESSAGES.passwordChangedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileChangingPassword,
    form: { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) },
  });
  const change = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    // The passwords typed are not kept once the server changed the password.
    if (outcome.applied) form.reset(EMPTY);
  });
  return (
    <Form noValidate onSubmit={change} aria-label="Change password">
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
