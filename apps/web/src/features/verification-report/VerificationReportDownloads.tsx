import {
  VERIFICATION_REPORT_TEXTS as TEXT,
  type VerificationPeriodQuery,
  verificationPeriod,
  verificationPeriodQuerySchema,
  withQuery,
} from '@portal/domain';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

export interface VerificationReportDownloadsProps {
  /** The download calls' paths (ROUTES.verificationReport's, built), the period added as `?from=&to=`. */
  csvPath: string;
  pdfPath: string;
  /** The period first shown (an address's, e.g. the monthly mail's link); the last 30 days otherwise. */
  initial?: VerificationPeriodQuery;
  /** Test ids start with it, so two of these can share a page. */
  testId: string;
}

/**
 * The verification report's period pickers (from and to, days) and its two downloads, CSV and PDF. A period the
 * domain schema refuses says why under its field, and the downloads wait for a valid one.
 */
export function VerificationReportDownloads({
  csvPath,
  pdfPath,
  initial = {},
  testId,
}: VerificationReportDownloadsProps) {
  const id = useId();
  const [period, setPeriod] = useState(() => {
    const { from, to } = verificationPeriod(initial, new Date());
    return { from, to };
  });
  const parsed = verificationPeriodQuerySchema.safeParse(period);
  const errorOf = (field: 'from' | 'to') =>
    parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
  const field = (name: 'from' | 'to', label: string) => (
    <Form.Group controlId={`${id}-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="date"
        value={period[name]}
        onChange={(event) => setPeriod((p) => ({ ...p, [name]: event.target.value }))}
        isInvalid={errorOf(name) !== undefined}
        data-testid={`${testId}-${name}`}
      />
      <Form.Control.Feedback type="invalid">{errorOf(name)}</Form.Control.Feedback>
    </Form.Group>
  );
  const download = (path: string, label: string, kind: 'csv' | 'pdf') =>
    parsed.success ? (
      <a
        className="btn btn-outline-primary"
        href={withQuery(path, parsed.data)}
        download
        data-testid={`${testId}-${kind}`}
      >
        {label}
      </a>
    ) : (
      <Button variant="outline-primary" disabled data-testid={`${testId}-${kind}`}>
        {label}
      </Button>
    );
  return (
    <div data-testid={testId}>
      <Row className="g-3 align-items-start">
        <Col sm={6} md={3}>
          {field('from', TEXT.from)}
        </Col>
        <Col sm={6} md={3}>
          {field('to', TEXT.to)}
        </Col>
        <Col md={6} className="d-flex gap-2 align-items-end" style={{ minHeight: '4.5rem' }}>
          {download(csvPath, TEXT.downloadCsv, 'csv')}
          {download(pdfPath, TEXT.downloadPdf, 'pdf')}
        </Col>
      </Row>
      <p className="text-muted small mt-2 mb-0">{TEXT.periodHint}</p>
    </div>
  );
}
