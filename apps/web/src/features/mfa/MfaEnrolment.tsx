import { zodResolver } from '@hookform/resolvers/zod';
import { type MfaEnrolment as Enrolment, MFA_TEXTS, type MfaCodeInput, mfaCodeSchema } from '@portal/domain';
import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useConfirmMfa, useStartMfa } from './api';

const SUBMIT_TEXTS = { partialText: MFA_TEXTS.withErrors, unknownErrorText: MFA_TEXTS.unknownError };

/**
 * Turning two-factor sign-in on: a new key as a QR code and typed key, then the first code from the app to
 * confirm it. `onConfirmed` gets the recovery codes to show once; the caller shows them, as this form goes
 * away when the status it reads says the sign-in is on.
 */
export function MfaEnrolment({ onConfirmed }: { onConfirmed: (recoveryCodes: string[]) => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const form = useForm<MfaCodeInput>({ resolver: zodResolver(mfaCodeSchema), defaultValues: { code: '' } });
  const start = useDialogSubmit({ mutation: useStartMfa(), ...SUBMIT_TEXTS });
  const confirm = useDialogSubmit({
    mutation: useConfirmMfa(),
    ...SUBMIT_TEXTS,
    form: { setError: form.setError, fieldNames: ['code'] },
  });

  if (!enrolment) {
    return (
      <>
        <GlobalErrors messages={start.globalErrors} />
        <Button
          disabled={start.submitting}
          onClick={async () => {
            const outcome = await start.submit(undefined);
            if (outcome.applied && outcome.result) setEnrolment(outcome.result);
          }}
        >
          {MFA_TEXTS.start}
        </Button>
      </>
    );
  }
  const submit = form.handleSubmit(async (values) => {
    const outcome = await confirm.submit(values);
    if (outcome.applied && outcome.result) onConfirmed(outcome.result.recoveryCodes);
  });
  return (
    <Form noValidate onSubmit={submit} aria-label={MFA_TEXTS.enrolTitle}>
      <p>{MFA_TEXTS.scan}</p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code for the authenticator app"
        width={200}
        height={200}
        className="d-block mb-2"
      />
      <p className="small">
        {MFA_TEXTS.manualKey}: <code data-testid="mfa-secret">{enrolment.secret}</code>
      </p>
      <TextField
        form={form}
        idPrefix="mfa-enrol-"
        name="code"
        label={MFA_TEXTS.codeLabel}
        autoComplete="one-time-code"
      />
      <GlobalErrors messages={confirm.globalErrors} />
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {MFA_TEXTS.confirm}
      </Button>
    </Form>
  );
}
