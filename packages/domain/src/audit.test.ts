import { describe, expect, it } from 'vitest';
import { keyedRoutes, ROUTES } from './api.js';
import {
  AUDIT_SUBJECT_TYPES,
  auditFilterSchema,
  auditQuerySchema,
  auditSubjectLabel,
  auditSubjectText,
  outcomeOfStatus,
} from './audit.js';
import {
  AUDIT_KIND_GROUPS,
  AUDIT_ROUTE_KIND_LABELS,
  auditKindGroup,
  auditKindName,
  hasAuditKindLabel,
} from './audit-kind-labels.js';
import { auditedRouteKinds, auditKinds, auditKindsFor } from './audit-kinds.js';
import { AUDIT_EVENT_TYPES } from './enums.js';

describe('audit kinds (issue 18)', () => {
  it('names every state-changing route by its key in ROUTES, and no read, sign-in page or agent call', () => {
    const kinds = auditedRouteKinds();
    expect(kinds.get('DELETE /boltadmin/customers/:customerId')).toBe('customers.provider.remove');
    expect(kinds.get('PUT /boltadmin/customers/:customerId/plugins')).toBe('customers.plugins');
    expect(kinds.get('POST /admin/account/users')).toBe('users.add');
    expect(
      kinds.get(
        'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands',
      ),
    ).toBe('realtimeCommands.submit');
    // Reads are not recorded, except the specification's one GET that changes state (setting the default account).
    const gets = [...kinds.keys()].filter((key) => key.startsWith('GET '));
    expect(gets).toEqual([`GET ${ROUTES.storageAccounts.setDefault.path}`]);
    expect(kinds.has(`PUT ${ROUTES.machines.messages.path}`)).toBe(false);
    const values = [...kinds.values()];
    expect(values.some((k) => k.startsWith('auth.') || k.startsWith('restic.'))).toBe(false);
    expect(values).not.toContain('treeItems.list');
    expect(values).not.toContain('machineLink.agentLink');
  });

  it('offers the security events, the route kinds and the live commands, once each', () => {
    const kinds = auditKinds();
    expect(kinds.slice(0, AUDIT_EVENT_TYPES.length)).toEqual([...AUDIT_EVENT_TYPES]);
    expect(kinds).toContain('live.starttask');
    expect(kinds).not.toContain('live.localtreeitems');
    // Reads too: a read refused with 403 is recorded by its key.
    expect(kinds).toEqual(expect.arrayContaining(['apiTokens.list', 'audit.provider', 'mfa.status']));
    expect(kinds).not.toContain('auth.signIn');
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('names a kind by its event text or its own label', () => {
    expect(auditKindName('SIGN_IN_FAILED')).toBe('Sign-in failed');
    expect(auditKindName('customers.plugins')).toBe('Customer plugin settings changed');
    expect(auditKindName('apiTokens.create')).toBe('API token creation requested');
    expect(auditKindName('live.udpatetaskstatus')).toBe('Task paused or resumed');
    expect(auditKindName('billing.editServer')).toBe('Billing server changed');
  });
});

describe('audit kind labels (issue 29)', () => {
  const everyKind = auditKinds();
  const looksLikeKey = (label: string) => /[a-z][A-Z]|\.\w|_/.test(label);

  it('gives every kind of the route table, every live command and every security event a label of its own', () => {
    for (const { key } of keyedRoutes()) {
      if (!everyKind.includes(key)) continue;
      expect(hasAuditKindLabel(key), key).toBe(true);
    }
    for (const kind of [...AUDIT_EVENT_TYPES, ...everyKind]) {
      expect(hasAuditKindLabel(kind), kind).toBe(true);
      const label = auditKindName(kind);
      expect(label, kind).not.toBe(kind);
      expect(looksLikeKey(label), `${kind}: ${label}`).toBe(false);
    }
    // No two kinds read the same, so the filter and the table never leave one to guess.
    const labels = everyKind.map(auditKindName);
    expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
  });

  it('has no label left for a kind that no longer exists', () => {
    expect(Object.keys(AUDIT_ROUTE_KIND_LABELS).filter((kind) => !everyKind.includes(kind))).toEqual([]);
  });

  it('puts every kind in a group, security events under sign-in and security', () => {
    expect(auditKindGroup('SIGN_IN_FAILED')).toBe('Sign-in and security');
    expect(auditKindGroup('users.add')).toBe('Users');
    expect(auditKindGroup('live.starttask')).toBe('Tasks and restores');
    expect(auditKindGroup('billing.addServer')).toBe('Billing');
    expect(auditKindGroup('storageLocations.create')).toBe('Storage');
    // Only the portal's own pages and documents are other.
    const other = everyKind.filter((kind) => auditKindGroup(kind) === 'Other').map((kind) => kind.split('.')[0]);
    expect([...new Set(other)].sort()).toEqual(['demo', 'health', 'openApi', 'web']);
  });

  it('offers the provider every kind, grouped in the groups order', () => {
    const groups = auditKindsFor('provider');
    expect(groups.flatMap((g) => g.kinds.map((k) => k.kind)).sort()).toEqual([...everyKind].sort());
    const order = groups.map((g) => g.group);
    expect(order).toEqual(AUDIT_KIND_GROUPS.filter((group) => order.includes(group)));
    expect(groups.find((g) => g.group === 'Billing')?.kinds).toContainEqual({
      kind: 'billing.editServer',
      label: 'Billing server changed',
    });
  });

  it("never offers a customer the provider's own kinds, nor a reseller's to a customer that is not one", () => {
    const customer = auditKindsFor('customer').flatMap((g) => g.kinds.map((k) => k.kind));
    const reseller = auditKindsFor('reseller').flatMap((g) => g.kinds.map((k) => k.kind));
    for (const providerOnly of [
      'billing.addServer',
      'billing.editServer',
      'billing.deleteServer',
      'billing.testForm',
      'storageAccounts.add',
      'storageAccounts.setDefault',
      'packageTemplates.provider.add',
      'customers.lists.customers',
      'taskOverview.running',
      'live.provider',
      'demo.mails',
    ]) {
      expect(customer, providerOnly).not.toContain(providerOnly);
      expect(reseller, providerOnly).not.toContain(providerOnly);
    }
    expect(customer).not.toContain('packageTemplates.reseller.add');
    expect(reseller).toContain('packageTemplates.reseller.add');
    // What happens to a customer's own data is its business, whoever did it.
    for (const own of ['users.add', 'SIGN_IN_FAILED', 'live.udpatetaskstatus', 'customers.provider.changeStatus']) {
      expect(customer, own).toContain(own);
    }
  });

  it('names a subject by its name and id, or by its kind and id when the name is not known', () => {
    expect(auditSubjectText({ subjectType: 'package', subjectId: 14, subjectName: 'Gold' })).toBe(
      'Package: Gold (id 14)',
    );
    expect(auditSubjectText({ subjectType: 'whmcsServer', subjectId: 1, subjectName: null })).toBe(
      'Billing server id 1',
    );
    expect(auditSubjectText({ subjectType: null, subjectId: null, subjectName: null })).toBe('');
    for (const type of AUDIT_SUBJECT_TYPES) expect(looksLikeKey(auditSubjectLabel(type)), type).toBe(false);
  });
});

describe('outcomeOfStatus', () => {
  it('is refused for a denial, failed for any other error, succeeded otherwise', () => {
    expect([200, 204, 302].map(outcomeOfStatus)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect([401, 403, 404].map(outcomeOfStatus)).toEqual(['refused', 'refused', 'refused']);
    expect([400, 409, 500, 503].map(outcomeOfStatus)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });
});

describe('auditFilterSchema', () => {
  it('reads empty fields as no filter and typed ones as dates and ids', () => {
    expect(auditFilterSchema.parse({ email: '', subjectId: '', outcome: '', customerId: '' })).toEqual({
      from: undefined,
      to: undefined,
      email: undefined,
      kind: undefined,
      subjectType: undefined,
      subjectId: undefined,
      outcome: undefined,
      customerId: undefined,
    });
    const parsed = auditFilterSchema.parse({ from: '2026-01-02T03:04:05Z', subjectId: '12', outcome: 'refused' });
    expect(parsed.from?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parsed.subjectId).toBe(12);
  });

  it('refuses a bad date, a bad outcome and a range that ends before it starts, on their fields', () => {
    const fields = (input: Record<string, string>) =>
      auditFilterSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(fields({ from: 'yesterday' })).toEqual(['from']);
    expect(fields({ outcome: 'maybe' })).toEqual(['outcome']);
    expect(fields({ from: '2026-02-01', to: '2026-01-01' })).toEqual(['to']);
  });

  it('says what an id filter and the paging take, whatever was typed', () => {
    const messages = (input: Record<string, string>) =>
      auditQuerySchema.safeParse(input).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    for (const typed of ['abc', '-5', '1.5']) {
      expect(messages({ subjectId: typed })).toEqual([['subjectId', 'Subject id must be a whole number above 0']]);
    }
    expect(messages({ customerId: 'x' })).toEqual([
      ['customerId', 'Tenant must be a customer id, a whole number above 0'],
    ]);
    expect(messages({ size: '100000' })).toEqual([['size', 'Size must be a whole number from 1 to 100']]);
    expect(messages({ page: '-1' })).toEqual([['page', 'Page must be a whole number, 0 or more']]);
  });

  it('refuses a control character in a text filter (a NUL cannot reach a PostgreSQL query), on its field', () => {
    const fields = (input: Record<string, string>) =>
      auditFilterSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(fields({ email: 'a\u0000b' })).toEqual(['email']);
    expect(fields({ kind: 'users.add\u001b' })).toEqual(['kind']);
    expect(fields({ subjectType: '\u0007' })).toEqual(['subjectType']);
  });
});
