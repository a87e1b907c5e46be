import { zodResolver } from '@hookform/resolvers/zod';
import { MFA_TEXTS, type MfaPasswordAndCodeInput, mfaPasswordAndCodeSchema } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { GlobalErrors, refreshQueries, TextField, useDialogSubmit } from '../../ui';
import { MFA_REFRESH, useDisableMfa, useMfaStatus, useRegenerateRecoveryCodes } from './api';
import { MfaEnrolment } from './MfaEnrolment';
import { RecoveryCodes } from './RecoveryCodes';

const EMPTY: MfaPasswordAndCodeInput = { password: '', code: '' };
const SUBMIT_TEXTS = { partialText: MFA_TEXTS.withErrors, unknownErrorText: MFA_TEXTS.unknownError };

/** Turning off and new recovery codes: both need the password and a code. */
function ManageMfa({ required, onCodes }: { required: boolean; onCodes: (codes: string[]) => void }) {
  const form = useForm<MfaPasswordAndCodeInput>({
    resolver: zodResolver(mfaPasswordAndCodeSchema),
    defaultValues: EMPTY,
  });
  const routing = { setError: form.setError, fieldNames: ['password', 'code'] as const };
  const disable = useDialogSubmit({
    mutation: useDisableMfa(),
    successText: MFA_TEXTS.disabled,
    ...SUBMIT_TEXTS,
    form: routing,
  });
  const regenerate = useDialogSubmit({
    mutation: useRegenerateRecoveryCodes(),
    successText: MFA_TEXTS.regenerated,
    ...SUBMIT_TEXTS,
    form: routing,
  });
  const turnOff = form.handleSubmit(async (values) => {
    if ((await disable.submit(values)).applied) form.reset(EMPTY);
  });
  const renew = form.handleSubmit(async (values) => {
    const outcome = await regenerate.submit(values);
    if (outcome.applied && outcome.result) {
      form.reset(EMPTY);
      onCodes(outcome.result.recoveryCodes);
    }
  });
  return (
    <Form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Manage two-factor sign-in">
      <TextField
        form={form}
        idPrefix="mfa-"
        name="password"
        label={MFA_TEXTS.passwordLabel}
        type="password"
        autoComplete="current-password"
      />
      <TextField form={form} idPrefix="mfa-" name="code" label={MFA_TEXTS.codeLabel} autoComplete="one-time-code" />
      <GlobalErrors messages={[...disable.globalErrors, ...regenerate.globalErrors]} />
      <div className="d-flex gap-2">
        <Button variant="outline-primary" onClick={renew} disabled={form.formState.isSubmitting}>
          {MFA_TEXTS.regenerate}
        </Button>
        {!required && (
          <Button variant="outline-danger" onClick={turnOff} disabled={form.formState.isSubmitting}>
            {MFA_TEXTS.disable}
          </Button>
        )}
      </div>
    </Form>
  );
}

/** The profile page's two-factor sign-in section (issue 18). */
export function MfaSection() {
  const status = useMfaStatus();
  const client = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => refreshQueries(client, MFA_REFRESH);
  if (status.isPending) return <Spinner animation="border" role="status" size="sm" />;
  if (!status.data) return null;
  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          refresh();
        }}
      />
    );
  }
  if (!status.data.enabled) {
    return (
      <>
        <p>{MFA_TEXTS.off}</p>
        <MfaEnrolment onDone={refresh} />
      </>
    );
  }
  return (
    <>
      <p data-testid="mfa-status">
        {MFA_TEXTS.on} {MFA_TEXTS.recoveryCodesLeft(status.data.recoveryCodesLeft)}
      </p>
      <ManageMfa required={status.data.required} onCodes={setCodes} />
    </>
  );
}
