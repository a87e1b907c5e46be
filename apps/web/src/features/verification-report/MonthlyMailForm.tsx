import {
  VERIFICATION_REPORT_TEXTS as TEXT,
  type VerificationReportSettings,
  verificationReportSettingsSchema,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { CheckboxField, GlobalErrors, SubmitButton, useSettingsForm } from '../../ui';
import { useSaveVerificationReportSettings } from './mutations';

/**
 * The customer's opt-in to the monthly verification report mail (issue 32 item 4), on the notification settings
 * screen its super admin already uses; saved with a toast.
 */
export function MonthlyMailForm({ settings, readOnly }: { settings: VerificationReportSettings; readOnly: boolean }) {
  const { field, onSubmit, submitting, globalErrors } = useSettingsForm(settings, {
    schema: verificationReportSettingsSchema,
    mutation: useSaveVerificationReportSettings(),
    fieldNames: ['monthlyMail'],
    idPrefix: 'verification-',
    successText: TEXT.monthlyMailSaved,
    partialText: TEXT.monthlyMailSavedWithErrors,
    unknownErrorText: TEXT.monthlyMailSaveFailed,
  });
  return (
    <Form noValidate onSubmit={onSubmit} data-testid="verification-mail-form">
      <fieldset disabled={readOnly}>
        <CheckboxField {...field} name="monthlyMail" label={TEXT.monthlyMailLabel} />
      </fieldset>
      <p className="text-muted small">{TEXT.monthlyMailHelp}</p>
      {!readOnly && (
        <SubmitButton submitting={submitting} data-testid="verification-mail-save">
          {TEXT.save}
        </SubmitButton>
      )}
      <GlobalErrors messages={globalErrors} />
    </Form>
  );
}
