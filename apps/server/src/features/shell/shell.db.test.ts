import { type InitialData, PAGES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, resellerSettings } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createShellRepo } from './repo.js';
import { createShellService, HOST_BRAND_TTL_MS } from './service.js';

let t: TestApp;
let tenants: Tenants;

const RESELLER_HOST = 'backup.resell.test';
const TRICKY_NAME = `Tricky $' $& <b>"Backup"</b>`;
/** The reseller's look and feel as stored, and as every page of its brand carries it. */
const LOOK = {
  mainSiteLink: 'https://www.resell.test',
  logo: 'resell-logo.png',
  favicon: 'resell-favicon.png',
  appHeaderColour: '#123456',
  appHeaderTextColour: '#fefefe',
  appBackgroundColour: '#f0f0f0',
  functionalBackgroundColour: '#e0e0e0',
  functionalButtonColour: '#335577',
  appEnabledButtonColour: '#224466',
  appDisabledButtonColour: '#aabbcc',
};

beforeAll(async () => {
  t = await createTestApp({ PROVIDER_SITE_URL: 'https://www.provider.test' });
  tenants = await createTenants(t.database.db);
  const db = t.database.db;
  await db
    .update(resellerSettings)
    .set({
      customUrl: 'Backup.Resell.test',
      ...LOOK,
      emailHost: 'smtp.resell.test',
      emailUsername: 'mailer@resell.test',
      emailPasswordEncrypted: 'sealed-secret',
      sendFromEmailAddress: 'noreply@resell.test',
    })
    .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
  // A reseller the provider has switched off, and one whose custom URL is a URL with stored junk colours.
  const [off, other, tricky] = await db
    .insert(customers)
    .values([
      { companyName: 'Switched Off Ltd', status: 'ACTIVE' },
      { companyName: 'Other Reseller', status: 'ACTIVE' },
      { companyName: 'Tricky Reseller', status: 'ACTIVE' },
    ])
    .returning({ id: customers.id });
  if (!off || !other || !tricky) throw new Error('customers not inserted');
  await db.insert(resellerSettings).values([
    { customerId: off.id, resellerEnabled: false, brandName: 'Off Brand', customUrl: 'off.reseller.test' },
    {
      customerId: other.id,
      resellerEnabled: true,
      brandName: '',
      customUrl: 'https://portal.other.test/start',
      appBackgroundColour: 'url(//t.test/x)',
      appHeaderColour: '#abc',
      mainSiteLink: 'javascript:alert(1)',
    },
    { customerId: tricky.id, resellerEnabled: true, brandName: TRICKY_NAME, customUrl: 'tricky.reseller.test' },
  ]);
});
afterAll(async () => {
  await t?.close();
});

function initialData(page: LightMyRequestResponse): InitialData {
  const json = /<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page.body)?.[1];
  if (!json) throw new Error(`no initial data in ${page.statusCode} ${page.body.slice(0, 200)}`);
  return JSON.parse(json) as InitialData;
}

async function open(url: string, host?: string) {
  return t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(host ? { host } : {}) } });
}
const brandOn = async (host: string, url: string = PAGES.login) => initialData(await open(url, host)).branding;

/** A browser on one host: every request carries that Host header. */
class HostClient extends TestClient {
  constructor(private readonly host: string) {
    super(t.app);
  }
  override request(options: Parameters<TestClient['request']>[0]) {
    return super.request({ ...options, headers: { ...(options.headers ?? {}), host: this.host } });
  }
}

async function signedInOn(host: string, email: string) {
  const client = new HostClient(host);
  await client.signIn(email, FIXTURE_PASSWORD);
  return initialData(await client.open('/'));
}

describe("a reseller's own host name before sign-in (issue 17)", () => {
  it("shows the reseller's brand on the sign-in, forgot-password, reset-password and sign-up pages", async () => {
    for (const url of [PAGES.login, PAGES.forgotPassword, `${PAGES.resetPassword}?token=abc`, PAGES.signup]) {
      expect(await brandOn(RESELLER_HOST, url), url).toEqual({
        brandName: 'Resell Backup',
        ...LOOK,
        portalOrigin: 'https://backup.resell.test',
      });
    }
  });

  it('matches the host whatever its case, with a port or a trailing dot', async () => {
    for (const host of ['BACKUP.Resell.TEST', 'backup.resell.test:8443', 'backup.resell.test.']) {
      expect((await brandOn(host))?.brandName, host).toBe('Resell Backup');
    }
  });

  it("shows the provider's brand on an unknown host, an address, a look-alike host, or a disabled reseller's host", async () => {
    for (const host of ['portal.test', '127.0.0.1:8080', '[::1]:8080', 'resell.test', 'x.backup.resell.test']) {
      expect(await brandOn(host), host).toBeNull();
    }
    expect(await brandOn('off.reseller.test')).toBeNull();
    // A custom URL stored as a URL matches its host only, not a host it merely starts with.
    expect(await brandOn('portal.other')).toBeNull();
  });

  it("gives another reseller's host that reseller's brand, its junk colours and links dropped", async () => {
    const other = await brandOn('portal.other.test');
    expect(other).toMatchObject({
      brandName: '',
      appHeaderColour: '#abc',
      appBackgroundColour: null,
      mainSiteLink: null,
      portalOrigin: 'https://portal.other.test',
    });
  });

  it("gives every page the provider's public site for direct customers' pricing", async () => {
    expect(initialData(await open(PAGES.login)).providerSiteUrl).toBe('https://www.provider.test');
    expect(initialData(await open(PAGES.login, RESELLER_HOST)).providerSiteUrl).toBe('https://www.provider.test');
  });

  it("names the served page and gives it the favicon of the host's brand, before any script runs", async () => {
    const branded = await open(PAGES.login, RESELLER_HOST);
    expect(branded.body).toContain('<title>Resell Backup</title>');
    expect(branded.body).toContain('<link rel="icon" href="/public/downloads/img/resell-favicon.png">');
    const plain = await open(PAGES.login, 'portal.test');
    expect(plain.body).toContain('<title>Cloud Portal</title>');
    expect(plain.body).toContain('<link rel="icon" href="/img/favicon.png">');
  });

  it('puts a brand name with markup or replacement patterns into the page as text', async () => {
    const page = await open(PAGES.login, 'tricky.reseller.test');
    expect(page.body).toContain(`<title>Tricky $' $&amp; &lt;b>&quot;Backup&quot;&lt;/b></title>`);
    expect(initialData(page).branding?.brandName).toBe(TRICKY_NAME);
    expect(page.body.match(/<\/head>/g)).toHaveLength(1);
  });

  it('never puts the e-mail settings into the page', async () => {
    const page = await open(PAGES.login, RESELLER_HOST);
    for (const secret of ['smtp.resell.test', 'mailer@resell.test', 'sealed-secret', 'noreply@resell.test']) {
      expect(page.body).not.toContain(secret);
    }
  });
});

describe('the brand after sign-in', () => {
  it("is the user's own, wherever they signed in", async () => {
    // The reseller's customer on the provider's host sees its reseller's brand; so does the reseller itself.
    expect((await signedInOn('portal.test', tenants.customerA.user.email)).branding?.brandName).toBe('Resell Backup');
    expect((await signedInOn('portal.test', tenants.reseller.superAdmin.email)).branding?.brandName).toBe(
      'Resell Backup',
    );
    // A direct customer and the provider admin who sign in on the reseller's host see the provider's brand.
    expect((await signedInOn(RESELLER_HOST, tenants.customerB.superAdmin.email)).branding).toBeNull();
    expect((await signedInOn(RESELLER_HOST, tenants.providerAdmin.email)).branding).toBeNull();
  });

  it("is the provider's again once the reseller is disabled", async () => {
    const db = t.database.db;
    const where = eq(resellerSettings.customerId, tenants.reseller.customerId);
    await db.update(resellerSettings).set({ resellerEnabled: false }).where(where);
    try {
      expect((await signedInOn('portal.test', tenants.customerA.admin.email)).branding).toBeNull();
    } finally {
      await db.update(resellerSettings).set({ resellerEnabled: true }).where(where);
    }
  });
});

describe('the host brand cache', () => {
  it('keeps a host brand for the TTL, then reads the changed settings', async () => {
    let now = 1_000_000;
    const shell = createShellService(createShellRepo(t.database.db), { now: () => now });
    const db = t.database.db;
    const where = eq(resellerSettings.customerId, tenants.reseller.customerId);
    expect((await shell.brandingForHost(RESELLER_HOST))?.appHeaderColour).toBe('#123456');
    await db.update(resellerSettings).set({ appHeaderColour: '#654321' }).where(where);
    try {
      now += HOST_BRAND_TTL_MS - 1;
      expect((await shell.brandingForHost(RESELLER_HOST))?.appHeaderColour).toBe('#123456');
      now += 2;
      expect((await shell.brandingForHost(RESELLER_HOST))?.appHeaderColour).toBe('#654321');
      await db.update(resellerSettings).set({ resellerEnabled: false }).where(where);
      shell.forgetHostBrands();
      expect(await shell.brandingForHost(RESELLER_HOST)).toBeNull();
    } finally {
      await db.update(resellerSettings).set({ appHeaderColour: '#123456', resellerEnabled: true }).where(where);
    }
  });
});
