import {
  NOTIFICATION_LABELS,
  NOTIFICATION_TEXTS,
  type NotificationThresholds,
  notificationThresholdsSchema,
} from '@portal/domain';
import { useEffect } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { GlobalErrors, SubmitButton, TextField, useSubmitForm } from '../../ui';
import { useSaveThresholds } from './mutations';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;

/** The customer's alert thresholds: offline hours and the near-quota share, saved with a toast. */
export function ThresholdsForm({ thresholds, readOnly }: { thresholds: NotificationThresholds; readOnly: boolean }) {
  const { form, field, onSubmit, submitting, globalErrors } = useSubmitForm({
    schema: notificationThresholdsSchema,
    defaults: () => thresholds,
    mutation: useSaveThresholds(),
    variables: (payload) => payload,
    fieldNames: ['offlineHours', 'quotaNearPercent'],
    successText: TEXT.thresholdsSaved,
    partialText: TEXT.thresholdsSavedWithErrors,
    unknownErrorText: TEXT.unknownWhileSavingThresholds,
  });
  useEffect(() => form.reset(thresholds), [form, thresholds]);
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
