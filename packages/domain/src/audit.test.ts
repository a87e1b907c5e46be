import { describe, expect, it } from 'vitest';
import { ROUTES } from './api.js';
import { auditFilterSchema, auditKindName, auditQuerySchema, outcomeOfStatus } from './audit.js';
import { auditedRouteKinds, auditKinds } from './audit-kinds.js';
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

  it('names a kind by its event text, else by the key', () => {
    expect(auditKindName('SIGN_IN_FAILED')).toBe('Sign-in failed');
    expect(auditKindName('customers.plugins')).toBe('Customers: plugins');
    expect(auditKindName('customers.provider.changeStatus')).toBe('Customers: provider change status');
    expect(auditKindName('apiTokens.create')).toBe('API tokens: create');
    expect(auditKindName('mfa.disable')).toBe('Two-factor sign-in: disable');
    expect(auditKindName('live.starttask')).toBe('Live command: starttask');
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
