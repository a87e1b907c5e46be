import {
  NOTIFICATION_LABELS,
  NOTIFICATION_TEXTS,
  type NotificationThresholds,
  notificationThresholdsSchema,
} from '@portal/domain';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { GlobalErrors, SubmitButton, TextField, useSettingsForm } from '../../ui';
import { useSaveThresholds } from './mutations';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;

/** The customer's alert thresholds: offline hours and the near-quota share, saved with a toast. */
export function ThresholdsForm({ thresholds, readOnly }: { thresholds: NotificationThresholds; readOnly: boolean }) {
  const { field, onSubmit, submitting, globalErrors } = useSettingsForm(thresholds, {
    schema: notificationThresholdsSchema,
    mutation: useSaveThresholds(),
    fieldNames: ['offlineHours', 'quotaNearPercent'],
    successText: TEXT.thresholdsSaved,
    partialText: TEXT.thresholdsSavedWithErrors,
    unknownErrorText: TEXT.unknownWhileSavingThresholds,
  });
  return (
    <Form noValidate onSubmit={onSubmit} data-testid="thresholds-form">
      <p className="text-muted small">{TEXT.customerHint}</p>
      <Row className="g-3 align-items-end">
        <Col md={5}>
          <TextField {...field} name="offlineHours" label={L.offlineHours} type="number" />
        </Col>
        <Col md={5}>
          <TextField {...field} name="quotaNearPercent" label={L.quotaNearPercent} type="number" />
        </Col>
        {!readOnly && (
          <Col md={2} className="mb-3">
            <SubmitButton submitting={submitting} data-testid="thresholds-save">
              {TEXT.save}
            </SubmitButton>
          </Col>
        )}
      </Row>
      <GlobalErrors messages={globalErrors} />
    </Form>
  );
}
