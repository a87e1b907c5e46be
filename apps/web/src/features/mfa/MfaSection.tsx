import { zodResolver } from '@hookform/resolvers/zod';
import { MFA_TEXTS, type MfaPasswordAndCodeInput, mfaPasswordAndCodeSchema } from '@portal/domain';
import { type ReactNode, useState } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useDisableMfa, useMfaStatus, useRegenerateRecoveryCodes } from './api';
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

/**
 * The profile page's two-factor sign-in section (issue 18). The status line reads the status query, which
 * each change refreshes at once, so it says the sign-in is on while the new recovery codes still show.
 */
export function MfaSection() {
  const status = useMfaStatus();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (status.isPending) return <Spinner animation="border" role="status" size="sm" />;
  if (!status.data) return null;
  const { enabled, recoveryCodesLeft, required } = status.data;
  let body: ReactNode;
  if (codes) body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  else if (enabled) body = <ManageMfa required={required} onCodes={setCodes} />;
  else body = <MfaEnrolment onConfirmed={setCodes} />;
  return (
    <>
      <p data-testid="mfa-status">
        {enabled ? `${MFA_TEXTS.on} ${MFA_TEXTS.recoveryCodesLeft(recoveryCodesLeft)}` : MFA_TEXTS.off}
      </p>
      {body}
    </>
  );
}
