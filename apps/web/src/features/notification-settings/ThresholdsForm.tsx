import { zodResolver } from '@hookform/resolvers/zod';
import {
  NOTIFICATION_LABELS,
  NOTIFICATION_TEXTS,
  type NotificationThresholds,
  notificationThresholdsSchema,
} from '@portal/domain';
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { type Resolver, useForm } from 'react-hook-form';
import { GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useSaveThresholds } from './mutations';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;

/** The customer's alert thresholds: offline hours and the near-quota share, saved with a toast. */
export function ThresholdsForm({ thresholds, readOnly }: { thresholds: NotificationThresholds; readOnly: boolean }) {
  const form = useForm<NotificationThresholds>({
    resolver: zodResolver(notificationThresholdsSchema) as unknown as Resolver<NotificationThresholds>,
    defaultValues: thresholds,
  });
  useEffect(() => form.reset(thresholds), [form, thresholds]);
  const { submit, globalErrors, submitting } = useDialogSubmit({
    mutation: useSaveThresholds(),
    successText: TEXT.thresholdsSaved,
    partialText: TEXT.thresholdsSavedWithErrors,
    unknownErrorText: TEXT.unknownWhileSavingThresholds,
    form: { setError: form.setError, fieldNames: ['offlineHours', 'quotaNearPercent'] },
  });
  const save = form.handleSubmit(async (values) => {
    await submit(values);
  });
  return (
    <Form noValidate onSubmit={save} data-testid="thresholds-form">
      <p className="text-muted small">{TEXT.customerHint}</p>
      <Row className="g-3 align-items-end">
        <Col md={5}>
          <TextField form={form} name="offlineHours" label={L.offlineHours} type="number" />
        </Col>
        <Col md={5}>
          <TextField form={form} name="quotaNearPercent" label={L.quotaNearPercent} type="number" />
        </Col>
        {!readOnly && (
          <Col md={2} className="mb-3">
            <Button type="submit" disabled={submitting} aria-busy={submitting} data-testid="thresholds-save">
              {submitting && <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />}
              {TEXT.save}
            </Button>
          </Col>
        )}
      </Row>
      <GlobalErrors messages={globalErrors} />
    </Form>
  );
}
