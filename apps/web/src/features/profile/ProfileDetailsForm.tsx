import { zodResolver } from '@hookform/resolvers/zod';
import {
  CURRENT_PASSWORD_LABEL,
  changesSignInEmail,
  MESSAGES,
  type ProfileInput,
  profileSchema,
  type ServerMessage,
  unknownErrorWhile,
} from '@portal/domain';
import { useMemo, useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { call } from '../../app/api';
import { GlobalErrors, handleSubmitResult, TextField } from '../../ui';
import { type Profile, useInvalidateProfile } from './queries';

const FIELDS: Array<{ name: Path<ProfileInput>; label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> =
  [
    { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
    { name: 'surname', label: 'Surname', type: 'text', autoComplete: 'family-name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'contactNumber', label: 'Contact number', type: 'tel', autoComplete: 'tel' },
  ];
const FIELD_NAMES: Array<Path<ProfileInput>> = [...FIELDS.map((f) => f.name), 'currentPassword'];

export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const invalidate = useInvalidateProfile();
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
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
  const submit = form.handleSubmit(async (values) => {
    const outcome = await handleSubmitResult(call('PUT', '/profile', values), {
      successText: MESSAGES.profileSaved,
      actionText: 'Profile saved',
      unknownErrorText: unknownErrorWhile('saving the profile'),
      form: { setError: form.setError, fieldNames: FIELD_NAMES },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.applied) {
      form.setValue('currentPassword', '');
      await invalidate();
    }
  });
  return (
    <Form noValidate onSubmit={submit} aria-label="Profile details">
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
