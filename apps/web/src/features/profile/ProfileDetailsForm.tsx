import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, type ProfileInput, profileSchema } from '@portal/domain';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useSaveProfile } from './mutations';
import type { Profile } from './queries';

const FIELDS: Array<{ name: Path<ProfileInput>; label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> =
  [
    { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
    { name: 'surname', label: 'Surname', type: 'text', autoComplete: 'family-name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'contactNumber', label: 'Contact number', type: 'tel', autoComplete: 'tel' },
  ];

export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const form = useForm<ProfileInput>({
    resolver: zodResolver(profileSchema),
    defaultValues: {
      firstName: profile.firstName,
      surname: profile.surname,
      email: profile.email,
      contactNumber: profile.contactNumber,
    },
  });
  const { isSubmitting } = form.formState;
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useSaveProfile(),
    successText: MESSAGES.profileSaved,
    partialText: MESSAGES.profileSavedWithErrors,
    unknownErrorText: MESSAGES.unknownWhileSavingProfile,
    form: { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) },
  });
  const save = form.handleSubmit((values) => submit(values));
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
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={isSubmitting} className="mt-2">
        Save profile
      </Button>
    </Form>
  );
}
