import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggableUrl } from './logging.js';
import { createTestApp, type TestApp } from './testing/app.js';
import { TestClient } from './testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from './testing/fixtures.js';
import { capturedDebugLog } from './testing/log.js';

describe('loggableUrl', () => {
  it.each([
    ['/reset-password?token=abc123', '/reset-password?token=*'],
    ['/agent/install.sh?code=K7Q2&os=linux', '/agent/install.sh?code=*&os=*'],
    ['/customers', '/customers'],
    ['/x?', '/x?'],
  ])('%s → %s', (url, logged) => expect(loggableUrl(url)).toBe(logged));
});

describe('the server log at debug level', () => {
  const log = capturedDebugLog();
  let t: TestApp;
  let tenants: Tenants;
  beforeAll(async () => {
    t = await createTestApp({}, { logger: log.logger });
    tenants = await createTenants(t.database.db);
  });
  afterAll(() => t?.close());

  it('holds no reset token, password, session cookie or CSRF token of the requests it logs', async () => {
    const token = 'reset-token-9b7e1f0c';
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    const client = new TestClient(t.app);
    await client.open();
    await client.signIn(tenants.customerA.admin.email, 'wrong-password-31c9');
    const signedIn = await client.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const cookie = String(signedIn.headers['set-cookie'] ?? '');
    const session = /=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect(session).not.toBe('');
    await client.json('GET', '/customers');
    expect(log.text()).toContain('/reset-password?token=*');
    expect(log.leaked([token, 'wrong-password-31c9', FIXTURE_PASSWORD, session, client.csrf])).toEqual([]);
  });
});
