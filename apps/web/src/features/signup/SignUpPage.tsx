import { zodResolver } from '@hookform/resolvers/zod';
import {
  fieldRequired,
  MESSAGES,
  newSignUpForm,
  PAGES,
  SIGN_UP_FORM_LABELS,
  type SignUpForm,
  type SignUpPayload,
  type SignUpTemplateOption,
  signUpSchema,
  signUpTemplateText,
} from '@portal/domain';
import { type ReactElement, useMemo, useState } from 'react';
import { Alert, Button, Form, Spinner } from 'react-bootstrap';
import { type Path, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { GlobalErrors, SelectField, TextFields, useDialogSubmit } from '../../ui';
import { PublicLayout } from '../auth/PublicLayout';
import { useSignUp } from './mutations';
import { useSignUpOptions } from './queries';

const TEXT = MESSAGES.signUp;
const L = SIGN_UP_FORM_LABELS;

const TEXT_FIELDS: Array<{
  name: Exclude<keyof typeof L, 'templateId'>;
  type: 'text' | 'email' | 'tel' | 'password';
  autoComplete: string;
  optional?: boolean;
}> = [
  { name: 'companyName', type: 'text', autoComplete: 'organization', optional: true },
  { name: 'firstName', type: 'text', autoComplete: 'given-name' },
  { name: 'surname', type: 'text', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'contactNumber', type: 'tel', autoComplete: 'tel' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', type: 'password', autoComplete: 'new-password' },
];
const FIELD_NAMES: Array<Path<SignUpForm>> = [...TEXT_FIELDS.map((f) => f.name), 'templateId'];

/** The form; the package choice shows only when the provider offers templates (the schema asks for one then). */
function SignUpFormView({
  templates,
  onSignedUp,
}: {
  templates: SignUpTemplateOption[];
  onSignedUp: (message: string) => void;
}) {
  const schema = useMemo(() => signUpSchema(templates.map((t) => t.id)), [templates]);
  const form = useForm<SignUpForm, unknown, SignUpPayload>({
    resolver: zodResolver(schema),
    defaultValues: newSignUpForm(),
  });
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useSignUp(),
    partialText: TEXT.signedUpWithErrors,
    unknownErrorText: TEXT.unknownWhileSigningUp,
    form: { setError: form.setError, fieldNames: FIELD_NAMES },
  });

  const signUp = form.handleSubmit(async (payload) => {
    const outcome = await submit(payload);
    if (outcome.applied) onSignedUp(outcome.result?.message ?? TEXT.submitted);
  });

  return (
    <Form noValidate onSubmit={signUp} aria-label={TEXT.title}>
      <p className="text-body-secondary small">{TEXT.intro}</p>
      <TextFields
        form={form}
        idPrefix="signup-"
        fields={TEXT_FIELDS.map(({ name, optional, ...input }) => ({
          ...input,
          name,
          label: L[name],
          placeholder: optional ? undefined : fieldRequired(L[name]),
        }))}
      />
      {templates.length > 0 && (
        <SelectField
          form={form}
          idPrefix="signup-"
          name="templateId"
          label={L.templateId}
          options={[
            { value: '', label: TEXT.templatePlaceholder },
            ...templates.map((t) => ({ value: t.id, label: signUpTemplateText(t) })),
          ]}
        />
      )}
      <Button type="submit" className="w-100" disabled={form.formState.isSubmitting}>
        {TEXT.submit}
      </Button>
      <GlobalErrors messages={globalErrors} />
    </Form>
  );
}

/**
 * The public sign-up page (domain signup.ts): a visitor opens an account for their company and becomes
 * its super admin; the provider approves the request. On success the page says so and links to sign in.
 */
export function SignUpPage() {
  const options = useSignUpOptions();
  const [signedUp, setSignedUp] = useState<string | null>(null);
  let body: ReactElement;
  if (signedUp !== null) {
    body = (
      <>
        <Alert variant="success" data-testid="signup-done">
          {signedUp}
        </Alert>
        <Link className="btn btn-primary w-100" to={PAGES.login}>
          {TEXT.signInLink}
        </Link>
      </>
    );
  } else if (options.isPending) {
    body = (
      <div className="text-center">
        <Spinner animation="border" role="status" />
      </div>
    );
  } else if (options.data) {
    body = <SignUpFormView templates={options.data.templates} onSignedUp={setSignedUp} />;
  } else {
    body = <Alert variant="danger">{MESSAGES.communicationError}</Alert>;
  }
  return (
    <PublicLayout title={TEXT.title}>
      {body}
      {signedUp === null && (
        <div className="mt-3 small">
          {TEXT.alreadyHaveAccount} <Link to={PAGES.login}>{TEXT.signInLink}</Link>
        </div>
      )}
    </PublicLayout>
  );
}
