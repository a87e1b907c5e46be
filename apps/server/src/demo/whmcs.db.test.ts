import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { backupPackages, customers, packageTemplates } from '../db/schema/index.js';
import { createSecretBox } from '../secrets.js';
import { openTestDatabase } from '../testing/database.js';
import { seedDemo } from './seed.js';
import { DEMO_DIRECT_CUSTOMER, startDemoWhmcs } from './whmcs.js';

const PUBLIC_URL = 'http://127.0.0.1:18123';

let database: Database;
let dataDir: string;
let demo: Awaited<ReturnType<typeof startDemoWhmcs>>;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, { password: 'demo-password' });
  dataDir = await mkdtemp(join(tmpdir(), 'demo-whmcs-'));
  demo = await startDemoWhmcs({
    db: database.db,
    secrets: createSecretBox('a'.repeat(64)),
    dataDir,
    port: 0,
    portal: loadConfig({ DEMO: 'true', PORT: '18123', DATA_DIR: dataDir, PUBLIC_URL }),
  });
});
afterAll(async () => {
  await demo?.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The href of a billing page's 'Back to the portal' link. */
const backLink = (html: string) => /<a href="([^"]*)">Back to the portal<\/a>/.exec(html)?.[1];

describe("the demo's billing system (issue 29 item 8)", () => {
  it("sends people back to PUBLIC_URL, where their session is, from every page (mass payment's sign-in too)", async () => {
    const page = await fetch(`${demo.baseUrl}clientarea.php?action=masspay&all=true`);
    const back = backLink(await page.text());
    expect(back).toBeDefined();
    expect(back?.startsWith(PUBLIC_URL)).toBe(true);
  });

  it('bills the direct demo customer its package template at the price the billing system sells that template for', async () => {
    const [adatum] = await database.db
      .select({ clientId: customers.whmcsClientId, template: packageTemplates.name })
      .from(customers)
      .innerJoin(backupPackages, eq(backupPackages.customerId, customers.id))
      .innerJoin(packageTemplates, eq(packageTemplates.id, backupPackages.templateId))
      .where(and(eq(customers.companyName, DEMO_DIRECT_CUSTOMER), isNotNull(backupPackages.whmcsServiceId)))
      .orderBy(backupPackages.whmcsServiceId);
    const state = demo.state();
    const product = state.products.find((p) => p.name === adatum?.template);
    const due = state.invoices.filter((i) => i.userId === adatum?.clientId && i.status === 'Unpaid');
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ total: product?.pricing.USD, description: `${adatum?.template} (monthly)` });
  });
});
