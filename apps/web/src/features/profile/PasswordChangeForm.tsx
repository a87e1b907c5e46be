import { MESSAGES, type PasswordChangeInput, passwordChangeSchema } from '@portal/domain';
import { Button, Form } from 'react-bootstrap';
import { GlobalErrors, type TextFieldSpec, TextFields, useSubmitForm } from '../../ui';
import { useChangePassword } from './mutations';

const FIELDS: Array<TextFieldSpec<PasswordChangeInput>> = [
  { name: 'currentPassword', label: 'Current password', type: 'password', autoComplete: 'current-password' },
  { name: 'password', label: 'New password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm password', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '' };

export function PasswordChangeForm() {
  const { form, field, onSubmit, submitting, globalErrors } = useSubmitForm({
    schema: passwordChangeSchema,
    defaults: () => EMPTY,
    mutation: useChangePassword(),
    variables: (payload) => payload,
    fieldNames: FIELDS.map((f) => f.name),
    idPrefix: 'password-',
    successText: MESSAGES.passwordChanged,
    partialText: MESSAGES.passwordChangedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileChangingPassword,
    // The passwords typed are not kept once the server changed the password.
    onOutcome: (outcome) => {
      if (outcome.applied) form.reset(EMPTY);
    },
  });
  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Change password">
      <TextFields {...field} fields={FIELDS} />
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={submitting} className="mt-2">
        Change password
      </Button>
    </Form>
  );
}
