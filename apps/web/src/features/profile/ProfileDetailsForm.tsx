import { zodResolver } from '@hookform/resolvers/zod';
import {
  CURRENT_PASSWORD_LABEL,
  changesSignInEmail,
  MESSAGES,
  type Profile,
  type ProfileInput,
  profileSchema,
} from '@portal/domain';
import { useMemo } from 'react';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useSaveProfile } from './mutations';

const FIELDS: Array<{ name: Path<ProfileInput>; label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> =
  [
    { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
    { name: 'surname', label: 'Surname', type: 'text', autoComplete: 'family-name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'contactNumber', label: 'Contact number', type: 'tel', autoComplete: 'tel' },
  ];
const FIELD_NAMES: Array<Path<ProfileInput>> = [...FIELDS.map((f) => f.name), 'currentPassword'];

export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const schema = useMemo(() => profileSchema(profile.email), [profile.email]);
  const form = useForm<ProfileInput>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: profile.firstName,
      surname: profile.surname,
      email: profile.email,
      contactNumber: profile.contactNumber,
      currentPassword: '',
    },
  });
  // The current password is asked for only while the form would change the sign-in e-mail.
  const emailChanges = changesSignInEmail(profile.email, form.watch('email'));
  const { isSubmitting } = form.formState;
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useSaveProfile(),
    successText: MESSAGES.profileSaved,
    partialText: MESSAGES.profileSavedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileSavingProfile,
    form: { setError: form.setError, fieldNames: FIELD_NAMES },
  });
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    if (outcome.applied) form.setValue('currentPassword', '');
  });
  return (
    <Form noValidate onSubmit={save} aria-label="Profile details">
      {FIELDS.map((field) => (
        <TextField
          key={field.name}
          form={form}
          idPrefix="profile-"
          name={field.name}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          placeholder={`${field.label} is required`}
        />
      ))}
      {emailChanges && (
        <TextField
          form={form}
          idPrefix="profile-"
          name="currentPassword"
          label={CURRENT_PASSWORD_LABEL}
          type="password"
          autoComplete="current-password"
        />
      )}
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={isSubmitting} className="mt-2">
        Save profile
      </Button>
    </Form>
  );
}
