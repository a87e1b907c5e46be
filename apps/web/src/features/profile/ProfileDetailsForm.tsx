import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGES,
  type Profile,
  type ProfileInput,
  profileSchema,
  type ServerMessage,
  unknownErrorWhile,
} from '@portal/domain';
import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { call } from '../../app/api';
import { GlobalErrors, handleSubmitResult, TextField } from '../../ui';
import { useInvalidateProfile } from './queries';

const FIELDS: Array<{ name: Path<ProfileInput>; label: string; type: 'text' | 'email' | 'tel'; autoComplete: string }> =
  [
    { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
    { name: 'surname', label: 'Surname', type: 'text', autoComplete: 'family-name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'contactNumber', label: 'Contact number', type: 'tel', autoComplete: 'tel' },
  ];

export function ProfileDetailsForm({ profile }: { profile: Profile }) {
  const invalidate = useInvalidateProfile();
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
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
  const submit = form.handleSubmit(async (values) => {
    const outcome = await handleSubmitResult(call('PUT', '/profile', values), {
      successText: MESSAGES.profileSaved,
      actionText: 'Profile saved',
      unknownErrorText: unknownErrorWhile('saving the profile'),
      form: { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.applied) await invalidate();
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
      <GlobalErrors messages={globalErrors} />
      <Button type="submit" disabled={isSubmitting} className="mt-2">
        Save profile
      </Button>
    </Form>
  );
}
