import { z } from 'zod';
import { AUDIT_EVENT_TEXTS, AUDIT_EVENT_TYPES, type AuditEventType } from './enums.js';
import { pageSizeParam, pagingQuerySchema } from './envelope.js';
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
  subjectType: string | null;
  subjectId: number | null;
  ipAddress: string | null;
  detail: Record<string, unknown> | null;
}

/** 'machine 12', or '' without a subject. */
export const auditSubjectText = (row: Pick<AuditRow, 'subjectType' | 'subjectId'>) =>
  row.subjectType ? `${row.subjectType}${row.subjectId === null ? '' : ` ${row.subjectId}`}` : '';

const isEventType = (kind: string): kind is AuditEventType => (AUDIT_EVENT_TYPES as readonly string[]).includes(kind);

/** Areas of the route table whose key does not read as words. */
const AREA_NAMES: Record<string, string> = {
  apiTokens: 'API tokens',
  mfa: 'Two-factor sign-in',
  live: 'Live command',
  whmcs: 'WHMCS',
  openApi: 'OpenAPI',
};
const WORDS: Record<string, string> = { api: 'API', whmcs: 'WHMCS', csv: 'CSV', mfa: 'two-factor', smtp: 'SMTP' };
const wordsOf = (segment: string) =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((word) => WORDS[word] ?? word)
    .join(' ');

/**
 * The text of a kind: the security events' own; a route key read as words, area first
 * (`customers.provider.changeStatus` → 'Customers: provider change status'); a live command keeps its name
 * as the channel spells it. The key itself stays in the record and the export.
 */
export function auditKindName(kind: string): string {
  if (isEventType(kind)) return AUDIT_EVENT_TEXTS[kind];
  const [area = '', ...rest] = kind.split('.');
  const head = AREA_NAMES[area] ?? wordsOf(area);
  const title = head.charAt(0).toUpperCase() + head.slice(1);
  if (rest.length === 0) return title;
  return `${title}: ${area === 'live' ? rest.join('.') : rest.map(wordsOf).join(' ')}`;
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

export const auditQuerySchema = z.intersection(
  pagingQuerySchema.extend({ size: pageSizeParam(100, AUDIT_PAGE_SIZE) }),
  auditFilterSchema,
);
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

/** The subject kinds a record may name: a route's most specific id parameter without its `Id`. */
export const AUDIT_SUBJECT_TYPES = [
  'customer',
  'user',
  'package',
  'machine',
  'task',
  'action',
  'snapshot',
  'run',
  'template',
  'request',
  'storageAccount',
  'storageLocation',
  'whmcsServer',
  'migration',
] as const;

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
