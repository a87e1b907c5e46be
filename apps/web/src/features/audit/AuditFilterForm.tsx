import { zodResolver } from '@hookform/resolvers/zod';
import {
  AUDIT_OUTCOMES,
  AUDIT_SUBJECT_LABELS,
  AUDIT_SUBJECT_TYPES,
  AUDIT_TEXTS,
  type AuditFilter,
  type AuditFilterFields,
  type AuditViewer,
  auditFilterSchema,
  auditKindsFor,
  EMPTY_AUDIT_FILTER,
} from '@portal/domain';
import { useEffect, useMemo } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import { type Resolver, useForm } from 'react-hook-form';
import { SelectField, TextField } from '../../ui';

const L = AUDIT_TEXTS.labels;

/** A filter's choices: 'any' (the empty value, no filter) first, then each value by its label. */
function anyOr<V extends string>(anyLabel: string, values: readonly V[], labelOf: (value: V) => string) {
  return [{ value: '', label: anyLabel }, ...values.map((value) => ({ value, label: labelOf(value) }))];
}

const SUBJECT_OPTIONS = anyOr(AUDIT_TEXTS.anySubject, AUDIT_SUBJECT_TYPES, (s) => AUDIT_SUBJECT_LABELS[s]);
const OUTCOME_OPTIONS = anyOr(AUDIT_TEXTS.anyOutcome, AUDIT_OUTCOMES, (o) => AUDIT_TEXTS.outcomes[o]);

/** The query a filter sends: times as ISO (the browser's local time the person typed), empty fields left out. */
export type AuditFilterQuery = Record<string, string | number | undefined>;

export function auditFilterQuery(filter: AuditFilter): AuditFilterQuery {
  return {
    from: filter.from?.toISOString(),
    to: filter.to?.toISOString(),
    email: filter.email,
    kind: filter.kind,
    subjectType: filter.subjectType,
    subjectId: filter.subjectId,
    outcome: filter.outcome,
    customerId: filter.customerId,
  };
}

/** A time of the query as the datetime-local field shows it: the browser's local time, to the second. */
function localFieldOf(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString();
  return local.endsWith(':00.000Z') ? local.slice(0, 16) : local.slice(0, 19);
}

/**
 * The filter a page address holds (its query, as `auditFilterQuery` wrote it): the fields to show, and the query
 * to send, null if the address holds a filter the schema refuses (a time that is no time stays as written, so
 * the schema says so). The tenant is read only where the page filters by it.
 */
export function auditFilterOfAddress(
  params: URLSearchParams,
  withTenant: boolean,
): { fields: AuditFilterFields; query: AuditFilterQuery | null } {
  const fields = { ...EMPTY_AUDIT_FILTER };
  for (const name of Object.keys(fields) as (keyof AuditFilterFields)[]) {
    const value = params.get(name) ?? '';
    if (name === 'customerId' && !withTenant) continue;
    fields[name] = name === 'from' || name === 'to' ? localFieldOf(value) || value : value;
  }
  const parsed = auditFilterSchema.safeParse(fields);
  return { fields, query: parsed.success ? auditFilterQuery(parsed.data) : null };
}

export interface AuditFilterFormProps {
  /** The provider's page filters by tenant too. */
  withTenant: boolean;
  /** Whose trail it is: the kind filter offers the kinds it can hold. */
  viewer: AuditViewer;
  /** What the fields show first (the page's address). */
  initial: AuditFilterFields;
  onApply: (query: AuditFilterQuery) => void;
}

/** The audit pages' filter: time range, person, kind, subject, outcome; checked with the server's own schema. */
export function AuditFilterForm({ withTenant, viewer, initial, onApply }: AuditFilterFormProps) {
  const form = useForm<AuditFilterFields>({
    // The schema's output (dates, ids) is what the submit handler gets; the fields hold the typed text.
    resolver: zodResolver(auditFilterSchema) as unknown as Resolver<AuditFilterFields>,
    defaultValues: initial,
  });
  // A filter from the address that the schema refuses is not applied: its messages say what to correct.
  const { trigger } = form;
  useEffect(() => {
    if (Object.values(initial).some((value) => value !== '')) void trigger();
  }, [initial, trigger]);
  const kindOptions = useMemo(
    () => [
      { value: '', label: AUDIT_TEXTS.anyKind },
      ...auditKindsFor(viewer).map(({ group, kinds }) => ({
        group,
        options: kinds.map(({ kind, label }) => ({ value: kind, label })),
      })),
    ],
    [viewer],
  );
  const submit = form.handleSubmit((values) => onApply(auditFilterQuery(values as unknown as AuditFilter)));
  const clear = () => {
    form.reset(EMPTY_AUDIT_FILTER);
    onApply({});
  };
  return (
    <Form noValidate onSubmit={submit} data-testid="audit-filter" aria-label="Audit filter">
      <Row className="g-2">
        <Col md={3}>
          <TextField form={form} name="from" label={L.from} type="datetime-local" />
        </Col>
        <Col md={3}>
          <TextField form={form} name="to" label={L.to} type="datetime-local" />
        </Col>
        <Col md={3}>
          <TextField form={form} name="email" label={L.email} type="email" />
        </Col>
        <Col md={3}>
          <SelectField form={form} name="kind" label={L.kind} options={kindOptions} />
        </Col>
        <Col md={3}>
          <SelectField form={form} name="subjectType" label={L.subjectType} options={SUBJECT_OPTIONS} />
        </Col>
        <Col md={2}>
          <TextField form={form} name="subjectId" label={L.subjectId} />
        </Col>
        <Col md={2}>
          <SelectField form={form} name="outcome" label={L.outcome} options={OUTCOME_OPTIONS} />
        </Col>
        {withTenant && (
          <Col md={2}>
            <TextField form={form} name="customerId" label={L.customerId} />
          </Col>
        )}
        <Col md="auto" className="d-flex align-items-center gap-2">
          <Button type="submit" data-testid="audit-apply">
            {AUDIT_TEXTS.apply}
          </Button>
          <Button variant="outline-secondary" onClick={clear} data-testid="audit-clear">
            {AUDIT_TEXTS.clear}
          </Button>
        </Col>
      </Row>
    </Form>
  );
}
