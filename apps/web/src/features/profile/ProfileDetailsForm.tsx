import {
  CURRENT_PASSWORD_LABEL,
  changesSignInEmail,
  fieldRequired,
  MESSAGES,
  type Profile,
  type ProfileInput,
  profileSchema,
} from '@portal/domain';
import { useMemo } from 'react';
import { Button, Form } from 'react-bootstrap';
import type { Path } from 'react-hook-form';
import { GlobalErrors, TextField, type TextFieldSpec, TextFields, useSubmitForm } from '../../ui';
import { useSaveProfile } from './mutations';

const FIELDS = (
  [
    { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
    { name: 'surname', label: 'Surname', type: 'text', autoComplete: 'family-name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'contactNumber', label: 'Contact number', type: 'tel', autoComplete: 'tel' },
  ] satisfies Array<TextFieldSpec<ProfileInput>>
).map((input): TextFieldSpec<ProfileInput> => ({ ...input, placeholder: fieldRequired(input.label) }));
const FIELD_NAMES: Array<Path<ProfileInput>> = [...FIELDS.map((f) => f.name), 'currentPassword'];

export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const schema = useMemo(() => profileSchema(profile.email), [profile.email]);
  const { form, field, onSubmit, submitting, globalErrors } = useSubmitForm({
    schema,
    defaults: (): ProfileInput => ({
      firstName: profile.firstName,
      surname: profile.surname,
      email: profile.email,
      contactNumber: profile.contactNumber,
      currentPassword: '',
    }),
    mutation: useSaveProfile(),
    variables: (payload) => payload,
    fieldNames: FIELD_NAMES,
    idPrefix: 'profile-',
    successText: MESSAGES.profileSaved,
    partialText: MESSAGES.profileSavedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileSavingProfile,
    onOutcome: (outcome) => {
      if (outcome.applied) form.setValue('currentPassword', '');
    },
  });
  // The current password is asked for only while the form would change the sign-in e-mail.
  const emailChanges = changesSignInEmail(profile.email, form.watch('email'));
  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Profile details">
      <TextFields {...field} fields={FIELDS} />
      {emailChanges && (
        <TextField
          {...field}
          name="currentPassword"
          label={CURRENT_PASSWORD_LABEL}
          type="password"
          autoComplete="current-password"
        />
      )}
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={submitting} className="mt-2">
        Save profile
      </Button>
    </Form>
  );
}
