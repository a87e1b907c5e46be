import { zodResolver } from '@hookform/resolvers/zod';
import { MFA_TEXTS, type MfaCodeInput, mfaCodeSchema, PAGES } from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { SignOutButton } from '../../app/SignOutButton';
import { useSession } from '../../app/session';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { PublicLayout } from '../auth/PublicLayout';
import { useMfaSecondStep } from './api';
import { MfaEnrolment } from './MfaEnrolment';
import { RecoveryCodes } from './RecoveryCodes';

/** /login/mfa: the second step of sign-in, for the code from the app or a recovery code. */
export function MfaSignInPage() {
  const form = useForm<MfaCodeInput>({ resolver: zodResolver(mfaCodeSchema), defaultValues: { code: '' } });
  const { submit, globalErrors } = useDialogSubmit({
    mutation: useMfaSecondStep(),
    partialText: MFA_TEXTS.withErrors,
    unknownErrorText: MFA_TEXTS.unknownSignInError,
    form: { setError: form.setError, fieldNames: ['code'] },
  });
  const verify = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    // A whole page load: the server writes the signed-in user's page data.
    if (outcome.applied) window.location.assign(outcome.result?.redirect ?? PAGES.dashboard);
  });
  return (
    <PublicLayout title={MFA_TEXTS.secondStepTitle}>
      <p>{MFA_TEXTS.secondStepIntro}</p>
      <Form noValidate onSubmit={verify}>
        <TextField form={form} name="code" label={MFA_TEXTS.codeLabel} autoComplete="one-time-code" />
        <GlobalErrors messages={globalErrors} />
        <Button type="submit" className="w-100" disabled={form.formState.isSubmitting}>
          {MFA_TEXTS.verify}
        </Button>
      </Form>
      <div className="mt-3 small text-center">
        <SignOutButton label={MFA_TEXTS.useAnotherAccount} className="p-0 small" />
      </div>
    </PublicLayout>
  );
}

/** /login/mfa/enrol: setting up two-factor sign-in, where a user who must have it is sent first. */
export function MfaEnrolPage() {
  const { data } = useSession();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <PublicLayout title={MFA_TEXTS.enrolTitle}>
      {data.mfaEnrolmentRequired && <Alert variant="info">{MFA_TEXTS.enrolRequired}</Alert>}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => window.location.assign(PAGES.dashboard)} />
      ) : (
        <MfaEnrolment onConfirmed={setCodes} />
      )}
      <div className="mt-3 small text-center">
        <SignOutButton className="p-0 small" />
      </div>
    </PublicLayout>
  );
}
