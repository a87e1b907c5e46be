import { z } from 'zod';
import { cursorPagingQuerySchema } from './cursor.js';
import { valuesWithTexts } from './enum-texts.js';
import { filterText } from './forms/fields.js';
import { ID_MAX } from './paths.js';

/**
 * The audit trail (issue 18): every security and administrative event, kept with who, on behalf of which
 * tenant, what, when, from where and how it ended. The explicit security events are AUDIT_EVENT_TYPES; every
 * other kind is the key of a state-changing route in ROUTES (`customers.provider.remove`), see audit-kinds.ts.
 */

export const AUDIT_OUTCOMES = ['succeeded', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** How a call ended, by its HTTP status: a denial (no session, no right, not yours: 401/403/404) is refused. */
export function outcomeOfStatus(status: number): AuditOutcome {
  if (status < 400) return 'succeeded';
  if (status === 401 || status === 403 || status === 404) return 'refused';
  return 'failed';
}

/** How long records are kept unless AUDIT_RETENTION_DAYS says otherwise. */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;
/**
 * The table counts matching records up to this many: counting millions of rows for a pager nobody pages to the
 * end of costs more than the page itself; a filter narrows the list, the CSV export has every row.
 */
export const AUDIT_COUNT_LIMIT = 10_000;
export const AUDIT_PAGE_SIZE = 25;

/** A record as the audit pages and the CSV show it: ids, names and statuses only, never a body or a secret. */
export interface AuditRow {
  id: number;
  /** ISO time. */
  at: string;
  kind: string;
  kindName: string;
  outcome: AuditOutcome | null;
  httpStatus: number | null;
  userId: number | null;
  email: string | null;
  name: string | null;
  /** The actor's own customer (null: a provider admin or a visitor). */
  actorCustomerId: number | null;
  /** The customer whose data it is (null: the provider's own, or none). */
  customerId: number | null;
  /** The tenant's name as it is now (null: no tenant, or it is gone). */
  customerName: string | null;
  subjectType: string | null;
  subjectId: number | null;
  /** The subject's name as it is now, else as it was when recorded (null: none known, or not the viewer's to see). */
  subjectName: string | null;
  ipAddress: string | null;
  detail: Record<string, unknown> | null;
}

/** 'Machine: web-01 (id 12)', 'Machine id 12' when its name is not known, or '' without a subject. */
export function auditSubjectText(row: Pick<AuditRow, 'subjectType' | 'subjectId' | 'subjectName'>): string {
  if (!row.subjectType) return '';
  const type = auditSubjectLabel(row.subjectType);
  const id = row.subjectId === null ? '' : `id ${row.subjectId}`;
  if (row.subjectName) return `${type}: ${row.subjectName}${id ? ` (${id})` : ''}`;
  return id ? `${type} ${id}` : type;
}

/** 'Contoso Ltd (id 10)', 'Customer id 10' when its name is not known, or '' without a tenant. */
export function auditTenantText(row: Pick<AuditRow, 'customerId' | 'customerName'>): string {
  if (row.customerId === null) return '';
  return row.customerName ? `${row.customerName} (id ${row.customerId})` : `Customer id ${row.customerId}`;
}

/** An id typed into a filter, or nothing: every way of getting it wrong answers the one message. */
const optionalId = (message: string) =>
  z
    .union([z.literal(''), z.coerce.number({ error: message }).int(message).positive(message).max(ID_MAX, message)], {
      error: message,
    })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

const optionalTime = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return undefined;
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${label} is not a valid date and time` });
        return z.NEVER;
      }
      return at;
    });

/** The filters of the audit pages and the CSV export (the form's fields, by the same names). */
export const auditFilterSchema = z
  .object({
    from: optionalTime('From'),
    to: optionalTime('To'),
    email: filterText('E-mail', 100),
    kind: filterText('Kind', 100),
    subjectType: filterText('Subject', 40),
    subjectId: optionalId('Subject id must be a whole number above 0'),
    outcome: z
      .union([z.literal(''), z.enum(AUDIT_OUTCOMES, { error: 'Outcome is not valid' })])
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    /** One tenant: on the provider's page any, on a reseller's account page one of its customers (or itself). */
    customerId: optionalId('Tenant must be a customer id, a whole number above 0'),
  })
  .refine((f) => !f.from || !f.to || f.from.getTime() <= f.to.getTime(), {
    message: 'From must be before To',
    path: ['to'],
  });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** A page of the trail: by `cursor` past the first (keyset on `at`, id: issue 33 item 6) or a bounded page number. */
export const auditQuerySchema = z.intersection(cursorPagingQuerySchema(100, AUDIT_PAGE_SIZE), auditFilterSchema);
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The filter form's fields as typed (strings); the form validates them with auditFilterSchema. */
export interface AuditFilterFields {
  from: string;
  to: string;
  email: string;
  kind: string;
  subjectType: string;
  subjectId: string;
  outcome: string;
  customerId: string;
}
export const EMPTY_AUDIT_FILTER: AuditFilterFields = {
  from: '',
  to: '',
  email: '',
  kind: '',
  subjectType: '',
  subjectId: '',
  outcome: '',
  customerId: '',
};

/**
 * The subject kinds a record may name, a route's most specific id parameter without its `Id`, with how the trail
 * names each.
 */
export const [AUDIT_SUBJECT_TYPES, AUDIT_SUBJECT_LABELS] = valuesWithTexts([
  ['customer', 'Customer'],
  ['user', 'User'],
  ['package', 'Package'],
  ['machine', 'Machine'],
  ['task', 'Task'],
  ['action', 'Run in progress'],
  ['snapshot', 'Snapshot'],
  ['run', 'Run'],
  ['template', 'Package template'],
  ['request', 'Package request'],
  ['storageAccount', 'Storage account'],
  ['storageLocation', 'Storage location'],
  ['whmcsServer', 'Billing server'],
  ['migration', 'Package migration'],
  ['token', 'API token'],
]);
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

/** A subject kind's label; one recorded before this list knew it reads as words ('someThing' → 'Some thing'). */
export function auditSubjectLabel(type: string): string {
  const known = (AUDIT_SUBJECT_LABELS as Record<string, string>)[type];
  if (known) return known;
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The audit pages' texts. */
export const AUDIT_TEXTS = {
  providerTitle: 'Audit Trail',
  accountTitle: 'Audit Trail',
  accountSubtitle: 'Every security and administrative event of your account, by whoever made it',
  resellerSubtitle:
    "Every security and administrative event of your account and your customers' accounts, by whoever made it",
  empty: 'No audit records match.',
  addressFilterInvalid: "The filter in this page's address is not valid: correct it and filter again.",
  apply: 'Filter',
  clear: 'Clear',
  exportCsv: 'Export CSV',
  anyKind: 'Any kind',
  anySubject: 'Any subject',
  anyOutcome: 'Any outcome',
  /** A customer that is not a reseller asked its trail for another tenant's records (the API; the page has no field). */
  tenantFilterRefused: 'Tenant (customer id) is for reseller accounts: this trail holds your own records only',
  countLimited: `Counted up to ${AUDIT_COUNT_LIMIT.toLocaleString('en')} records; narrow the filter or export for all.`,
  labels: {
    from: 'From',
    to: 'To',
    email: 'Person (e-mail)',
    kind: 'Kind',
    subjectType: 'Subject',
    subjectId: 'Subject id',
    outcome: 'Outcome',
    customerId: 'Tenant (customer id)',
  },
  columns: {
    at: 'Time',
    kind: 'Event',
    who: 'Who',
    tenant: 'Tenant',
    subject: 'Subject',
    outcome: 'Outcome',
    ipAddress: 'Address',
  },
  outcomes: { succeeded: 'Succeeded', refused: 'Refused', failed: 'Failed' } satisfies Record<AuditOutcome, string>,
} as const;
