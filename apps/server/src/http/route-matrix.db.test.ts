import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AccessLevel, AGENT_DOWNLOADS, allRoutes, changesState, ROUTES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { TestClient } from '../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../testing/fixtures.js';

/**
 * Every route of the server with the audience it must have, written out by hand as the pin of the
 * domain's route table (ROUTES): a route added without an entry here, or with another audience in the
 * table, fails this test.
 */
const EXPECTED: Record<string, AccessLevel> = {
  'GET /health': 'public',
  'GET /ready': 'public',
  'GET /metrics': 'public',
  'POST /login': 'public',
  'POST /logout': 'public',
  'POST /forgot-password': 'public',
  'POST /reset-password': 'public',
  'GET /signup/options': 'public',
  'POST /signup': 'public',
  'GET /profile': 'signedIn',
  'PUT /profile': 'signedIn',
  'PUT /profile/password': 'signedIn',
  'GET /profile/activity': 'signedIn',
  // Two-factor sign-in (issue 18): the second step of sign-in and the user's own settings.
  'POST /login/mfa': 'mfaPending',
  'GET /profile/mfa': 'signedIn',
  'POST /profile/mfa/enrolment': 'signedIn',
  'POST /profile/mfa/enrolment/confirm': 'signedIn',
  'POST /profile/mfa/disable': 'signedIn',
  'POST /profile/mfa/recoverycodes': 'signedIn',
  // Personal API tokens and the OpenAPI document (issue 18).
  'GET /profile/apitokens': 'signedIn',
  'POST /profile/apitokens': 'signedIn',
  'DELETE /profile/apitokens/:tokenId': 'signedIn',
  'GET /api/openapi.json': 'public',
  'GET /admin/users': 'customerAdmin',
  'GET /admin/account/users/roles': 'customerAdmin',
  'GET /admin/account/users/:userId': 'customerAdmin',
  'POST /admin/account/users': 'customerAdmin',
  'PUT /admin/account/users/:userId': 'customerAdmin',
  'GET /admin/account/users/:userId/linkablebackuppackages': 'customerAdmin',
  'PUT /admin/account/users/:userId/backuppackages/:packageId': 'customerAdmin',
  'DELETE /admin/account/users/:userId': 'customerAdmin',
  'GET /admin/account/users/:userId/backuppackages': 'customerAdmin',
  'GET /admin/account/users/:userId/backupmachines': 'customerAdmin',
  'POST /admin/account/users/import': 'customerAdmin',
  'GET /public/downloads/files/userimport/BulkUserImport.xlsx': 'public',
  // Getting the agent (issue 14).
  'GET /public/downloads/agent/portal-agent.cjs': 'public',
  'GET /public/downloads/agent/portal-agent-linux-x64': 'public',
  'GET /public/downloads/agent/install.sh': 'public',
  'GET /public/downloads/agent/install.ps1': 'public',
  'GET /boltadmin/customerspaginated': 'providerAdmin',
  'GET /boltadmin/customerstomakeresellerspaginated': 'providerAdmin',
  'GET /boltadmin/resellerspaginated': 'providerAdmin',
  'GET /boltadmin/customers/:customerId': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId': 'providerAdmin',
  'DELETE /boltadmin/customers/:customerId': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/users': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/users/:userId': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/users/:userId/backuppackages': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/users/:userId/backupmachines': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/plugins': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/makereseller': 'providerAdmin',
  // Reseller settings (issue 17): the screen's reads, the sections' PUTs, the stored images.
  'GET /admin/reselleradmin': 'resellerSuperAdmin',
  'PUT /admin/account/:section': 'resellerSuperAdmin',
  'GET /boltadmin/customers/:customerId/resellersettings': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/:section': 'providerAdmin',
  'GET /public/downloads/img/:filename': 'public',
  'GET /admin/mycustomerspaginated': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId': 'resellerAdmin',
  'PUT /admin/mycustomers/:customerId': 'resellerAdmin',
  'DELETE /admin/mycustomers/:customerId': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/users': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/users/:userId': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/users/:userId/backuppackages': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/users/:userId/backupmachines': 'resellerAdmin',
  'GET /admin/account': 'customerAdmin',
  'PUT /admin/account': 'customerAdmin',
  'PUT /admin/account/mfa/policy': 'customerSuperAdmin',
  'GET /demo/mails': 'providerAdmin',
  'GET /admin/mailfailures': 'customerSuperAdmin',
  'GET /boltadmin/auditevents': 'providerAdmin',
  'GET /boltadmin/auditevents/export': 'providerAdmin',
  'GET /admin/account/auditevents': 'customerSuperAdmin',
  'GET /admin/account/auditevents/export': 'customerSuperAdmin',
  'GET /dashboard/customers': 'customerManager',
  'GET /dashboard/customers/counts': 'customerManager',
  'GET /dashboard/customers/:customerId/machines': 'signedIn',
  'GET /dashboard/customers/:customerId/machines/counts': 'signedIn',
  'GET /dashboard/machines': 'customerMember',
  'GET /dashboard/machines/counts': 'customerMember',
  'GET /dashboard/backupmachines/:machineId/tasks': 'signedIn',
  'GET /dashboard/backupmachines/:machineId/tasks/counts': 'signedIn',
  'GET /dashboard/gettingstarted': 'customerMember',
  'GET /dashboard/attention': 'signedIn',
  'GET /dashboard/verification/counts': 'signedIn',
  'GET /dashboard/verification/tasks': 'signedIn',
  // The provider's task dashboards and the volume snapshots setting (002 §2.6, §7.3).
  'GET /boltadmin/backuptasks/running': 'providerAdmin',
  'GET /boltadmin/backuptasks/nextperiod': 'providerAdmin',
  'GET /boltadmin/backuptasks/beingdeleted': 'providerAdmin',
  'GET /boltadmin/backuptasks/counts': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId':
    'providerAdmin',
  'POST /backupmachines/:machineId/treeitems': 'signedIn',
  'POST /backupmachines/:machineId/filesearches': 'signedIn',
  'POST /backupmachines/:machineId/backuptasks/:taskId/filehistory': 'signedIn',
  'POST /backupmachines/:machineId/filesearches/stop': 'signedIn',
  'GET /backupmachines/:machineId/backuptasks/:taskId/restoretests/latest': 'signedIn',
  'GET /backupmachines/:machineId/backuptasks/:taskId/restoretests': 'signedIn',
  'POST /backupmachines/:machineId/backuptasks/:taskId/restoretests': 'signedIn',
  'GET /admin/restoretestsettings': 'customerSuperAdmin',
  'PUT /admin/restoretestsettings': 'customerSuperAdmin',
  'GET /admin/verificationreport/csv': 'customerSuperAdmin',
  'GET /admin/verificationreport/pdf': 'customerSuperAdmin',
  'GET /admin/customers/:customerId/verificationreport/csv': 'customerManager',
  'GET /admin/customers/:customerId/verificationreport/pdf': 'customerManager',
  'GET /admin/verificationreport/rollup/csv': 'customerManager',
  'GET /admin/verificationreport/rollup/pdf': 'customerManager',
  'GET /admin/verificationreport/settings': 'customerSuperAdmin',
  'PUT /admin/verificationreport/settings': 'customerSuperAdmin',
  'DELETE /agent/machines/:machineId/credential': 'public',
  'POST /agent/link': 'public',
  'POST /backupmachines/linkingcodes': 'customerMember',
  'POST /restic/:machineId/': 'public',
  'GET /restic/:machineId/config': 'public',
  'POST /restic/:machineId/config': 'public',
  'DELETE /restic/:machineId/config': 'public',
  'GET /restic/:machineId/:type/': 'public',
  'GET /restic/:machineId/:type/:name': 'public',
  'POST /restic/:machineId/:type/:name': 'public',
  'DELETE /restic/:machineId/:type/:name': 'public',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands':
    'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands/stop':
    'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands/delete':
    'providerAdmin',
  // Package migrations and the storage account migration (issue 16).
  'POST /boltadmin/customers/:customerId/backuppackages/:packageId/migrations': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/migrations': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/destinations': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/cancel': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/rollback': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/finalize': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/commandsequences':
    'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/commandsequences/stop':
    'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/migrations/:migrationId/commandsequences/delete':
    'providerAdmin',
  'POST /boltadmin/storageaccounts/:storageAccountId/migrations': 'providerAdmin',
  'POST /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/commands/uploadlogfiles':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/logfiles': 'providerAdmin',
  'POST /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/seed':
    'providerAdmin',
  'PUT /admin/backuppackages/:packageId/backupmachines/:machineId': 'anyAdmin',
  'PUT /agent/machines/:machineId/logfiles': 'public',
  // The machine pages (issue #14); the admin action path above is theirs too.
  'GET /backupmachines': 'customerMember',
  'GET /backupmachines/:machineId': 'signedIn',
  'PUT /backupmachines/:machineId': 'signedIn',
  'PUT /backupmachines/:machineId/remotemanagement': 'customerMember',
  'GET /backupmachines/:machineId/storage': 'signedIn',
  'PUT /backupmachines/:machineId/messages': 'signedIn',
  // The add/edit task dialog (issue 14, task-form).
  'GET /backupmachines/:machineId/backuptasks/:taskId/definition': 'signedIn',
  // Backup tasks: lists, the task page, runs, snapshots, storage and cancel (issue 14, task page).
  'GET /backupmachines/:machineId/backuptasks': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/actions': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/backupsnapshots': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/storage': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/backupsnapshots/:snapshotId/storage': 'customerMember',
  'PUT /backupmachines/:machineId/backuptasks/:taskId/backupactions/:actionId/cancel': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/backupruns': 'customerMember',
  'GET /backupmachines/:machineId/backuptasks/:taskId/datacheck': 'customerMember',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks': 'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId':
    'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/actions':
    'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupsnapshots':
    'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/storage':
    'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupsnapshots/:snapshotId/storage':
    'resellerAdmin',
  'PUT /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupactions/:actionId/cancel':
    'resellerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/datacheck':
    'resellerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/actions':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupsnapshots':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/storage':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupsnapshots/:snapshotId/storage':
    'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/backupactions/:actionId/cancel':
    'providerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/datacheck':
    'providerAdmin',
  'POST /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/datacheck':
    'providerAdmin',
  // A run's backed-up data (issue 14, "restore"): snapshot tree, downloads, archive deletion.
  'GET /backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId/tree': 'signedIn',
  'POST /backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId/downloads/initiate': 'signedIn',
  'POST /backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId/restore': 'signedIn',
  'POST /backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId/downloads/:download': 'signedIn',
  'PUT /backupmachines/:machineId/backuptasks/:taskId/backupsnapshots/:snapshotId': 'signedIn',
  // Guard rails (issue 32): the retention preview, pinning a run's snapshot, acknowledging an unusual run.
  'GET /backupmachines/:machineId/backuptasks/:taskId/retentionpreview': 'signedIn',
  'PUT /backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId/pin': 'signedIn',
  'PUT /backupmachines/:machineId/backuptasks/:taskId/changealert/acknowledge': 'signedIn',
  // Package templates and package requests (issue 15; 000 §7), and the customer's own requests.
  'GET /boltadmin/backuppackagetemplatespaginated': 'providerAdmin',
  'POST /boltadmin/backuppackagetemplates': 'providerAdmin',
  'PUT /boltadmin/backuppackagetemplates/:templateId': 'providerAdmin',
  'DELETE /boltadmin/backuppackagetemplates/:templateId': 'providerAdmin',
  'GET /admin/mypackagetemplatespaginated': 'resellerAdmin',
  'POST /admin/mypackagetemplates': 'resellerAdmin',
  'PUT /admin/mypackagetemplates/:templateId': 'resellerAdmin',
  'DELETE /admin/mypackagetemplates/:templateId': 'resellerAdmin',
  'GET /boltadmin/backuppackagerequestspaginated': 'providerAdmin',
  'PUT /boltadmin/backuppackagerequests/:requestId/approve': 'providerAdmin',
  'PUT /boltadmin/backuppackagerequests/:requestId/decline': 'providerAdmin',
  'GET /admin/backuppackagerequestspaginated': 'resellerAdmin',
  'PUT /admin/backuppackagerequests/:requestId/approve': 'resellerAdmin',
  'PUT /admin/backuppackagerequests/:requestId/decline': 'resellerAdmin',
  'GET /admin/account/backuppackagerequestspaginated': 'customerAdmin',
  // Backup packages (issue 15; 000 §7): the customer admins' table and page, storage, the package pages of
  // the reseller and provider, status change and deletion.
  'GET /admin/backuppackages': 'customerAdmin',
  'GET /backuppackages/:packageId/storage': 'signedIn',
  'GET /backuppackages/:packageId/backupmachines': 'signedIn',
  'GET /admin/backuppackages/:packageId': 'customerAdmin',
  'PUT /admin/backuppackages/:packageId': 'customerAdmin',
  'GET /admin/mycustomers/:customerId/backuppackages/:packageId': 'resellerAdmin',
  'PUT /admin/mycustomers/:customerId/backuppackages/:packageId': 'resellerAdmin',
  'GET /boltadmin/customers/:customerId/backuppackages/:packageId': 'providerAdmin',
  'PUT /boltadmin/backuppackages/:packageId': 'providerAdmin',
  // The live channel's WebSocket endpoints; a plain GET without an upgrade answers 404.
  'GET /ws/connect': 'customerMember',
  'GET /ws/boltadmin/connect': 'providerAdmin',
  'GET /ws/agent/connect': 'public',
  // Buying backup (issue 15, purchase): templates on offer, purchase, up/downgrade.
  'GET /admin/packagetemplates': 'customerAdmin',
  'POST /admin/backuppackages': 'customerSuperAdmin',
  'PUT /admin/backuppackages/:packageId/upgrade': 'customerSuperAdmin',
  // Billing (issue 15): the billing redirect and the provider's billing host servers.
  'GET /billing/info': 'customerMember',
  'GET /boltadmin/whmcsservers': 'providerAdmin',
  'POST /boltadmin/whmcsservers': 'providerAdmin',
  'PUT /boltadmin/whmcsservers/:whmcsServerId': 'providerAdmin',
  'DELETE /boltadmin/whmcsservers/:whmcsServerId': 'providerAdmin',
  'POST /boltadmin/whmcsservers/:whmcsServerId/testconnection': 'providerAdmin',
  'POST /boltadmin/whmcsservers/testconnection': 'providerAdmin',
  // Storage accounts (issue 16): accounts, buckets with policy info, storage users and keys.
  'GET /boltadmin/storageaccountspaginated': 'providerAdmin',
  'GET /boltadmin/storageaccounts/setDefaultStorageAccount': 'providerAdmin',
  'POST /boltadmin/storageaccounts': 'providerAdmin',
  'POST /boltadmin/storageaccounts/testconnection': 'providerAdmin',
  'GET /boltadmin/storageaccounts/:storageAccountId': 'providerAdmin',
  'PUT /boltadmin/storageaccounts/:storageAccountId': 'providerAdmin',
  'DELETE /boltadmin/storageaccounts/:storageAccountId': 'providerAdmin',
  'GET /boltadmin/storageaccounts/:storageAccountId/bucketswithpolicyinfo': 'providerAdmin',
  'GET /boltadmin/storageaccounts/:storageAccountId/users': 'providerAdmin',
  'GET /boltadmin/storageaccounts/:storageAccountId/accesskeys': 'providerAdmin',
  'PUT /boltadmin/storageaccounts/:storageAccountId/deleteuser': 'providerAdmin',
  'PUT /boltadmin/storageaccounts/:storageAccountId/deletebucketpolicyprincipal': 'providerAdmin',
  // Storage locations of a customer (issue 16, 001 §7) and a machine's storage key rotation.
  'GET /boltadmin/customers/:customerId/storagelocations': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/storagelocations/:storageLocationId': 'providerAdmin',
  'POST /boltadmin/customers/:customerId/storagelocations': 'providerAdmin',
  'DELETE /boltadmin/customers/:customerId/storagelocations/:storageLocationId': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/storagelocations/:storageLocationId/makedefault': 'providerAdmin',
  'GET /boltadmin/customers/:customerId/storagelocationaccounts': 'providerAdmin',
  'PUT /boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/storagekey/rotate':
    'providerAdmin',
  // Notification settings (issue 17): the customer super admin's own.
  'GET /admin/notificationsettings/thresholds': 'customerSuperAdmin',
  'PUT /admin/notificationsettings/thresholds': 'customerSuperAdmin',
  'GET /admin/notificationsettings/users': 'customerSuperAdmin',
  'PUT /admin/notificationsettings/users/:userId': 'customerSuperAdmin',
  'GET /admin/notificationsettings/machines': 'customerSuperAdmin',
};

type Caller =
  | 'anonymous'
  | 'providerAdmin'
  | 'resellerAdmin'
  | 'superAdmin'
  | 'customerAdmin'
  | 'customerUser'
  | 'otherTenantAdmin';
const CALLERS: Caller[] = [
  'anonymous',
  'providerAdmin',
  'resellerAdmin',
  'superAdmin',
  'customerAdmin',
  'customerUser',
  'otherTenantAdmin',
];

/** Who each audience lets in, written out by hand rather than derived from the code under test. */
const ALLOWED: Record<AccessLevel, Caller[]> = {
  public: CALLERS,
  signedIn: CALLERS.filter((c) => c !== 'anonymous'),
  customerMember: ['resellerAdmin', 'superAdmin', 'customerAdmin', 'customerUser', 'otherTenantAdmin'],
  customerManager: ['providerAdmin', 'resellerAdmin'],
  anyAdmin: ['providerAdmin', 'resellerAdmin', 'superAdmin', 'customerAdmin', 'otherTenantAdmin'],
  customerAdmin: ['resellerAdmin', 'superAdmin', 'customerAdmin', 'otherTenantAdmin'],
  customerSuperAdmin: ['resellerAdmin', 'superAdmin'],
  resellerAdmin: ['resellerAdmin'],
  resellerSuperAdmin: ['resellerAdmin'],
  providerAdmin: ['providerAdmin'],
  // Only a half-signed-in session, which none of these is (mfa.test.ts walks the table with one).
  mfaPending: [],
};

let t: TestApp;
let tenants: Tenants;
const clients = new Map<Caller, TestClient>();

/**
 * The agent's build as the downloads serve it, but with a small stand-in for the Linux executable: seven callers
 * each fetching the real one (about 100 MB) took over a minute on a busy machine, and this file checks who is let
 * in, not what is sent (agent-downloads.db.test.ts sends the real build).
 */
const agentDist = mkdtempSync(join(tmpdir(), 'route-matrix-agent-'));
const builtAgent = 'apps/agent/dist';
for (const name of existsSync(builtAgent) ? readdirSync(builtAgent) : []) {
  if (name !== AGENT_DOWNLOADS.linuxExecutable) copyFileSync(join(builtAgent, name), join(agentDist, name));
}
writeFileSync(join(agentDist, AGENT_DOWNLOADS.linuxExecutable), 'stand-in');

beforeAll(async () => {
  t = await createTestApp({ DEMO: 'true', AGENT_DIST_DIR: agentDist });
  tenants = await createTenants(t.database.db);
  const emails: Record<Exclude<Caller, 'anonymous'>, string> = {
    providerAdmin: tenants.providerAdmin.email,
    resellerAdmin: tenants.reseller.superAdmin.email,
    superAdmin: tenants.customerA.superAdmin.email,
    customerAdmin: tenants.customerA.admin.email,
    customerUser: tenants.customerA.user.email,
    otherTenantAdmin: tenants.customerB.admin.email,
  };
  const anonymous = new TestClient(t.app);
  await anonymous.open('/login');
  clients.set('anonymous', anonymous);
  for (const [caller, email] of Object.entries(emails) as Array<[Caller, string]>) {
    const client = new TestClient(t.app);
    const response = await client.signIn(email, FIXTURE_PASSWORD);
    expect(response.headers.location).toBe('/');
    clients.set(caller, client);
  }
});
afterAll(async () => {
  await t.close();
  rmSync(agentDist, { recursive: true, force: true });
});

describe('route matrix (issue #2)', () => {
  it('lists every route with its expected audience, and no more', () => {
    const actual = Object.fromEntries(t.app.routeCatalogue.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(actual).toEqual(EXPECTED);
  });

  it('registers every entry of the route table with its access level, and nothing else', () => {
    // The web app's files are served only when it is built, which the tests do not do.
    const builtOnly = new Set<string>(Object.values(ROUTES.web).map((r) => `${r.method} ${r.path}`));
    const table = Object.fromEntries(
      allRoutes()
        .map((r) => [`${r.method} ${r.path}`, r.access] as const)
        .filter(([key]) => !builtOnly.has(key)),
    );
    expect(table).toEqual(EXPECTED);
    const registered = new Set(t.app.routeCatalogue.map((r) => `${r.method} ${r.url}`));
    expect([...registered].sort()).toEqual(Object.keys(table).sort());
  });

  for (const [key, level] of Object.entries(EXPECTED)) {
    const [method, url] = key.split(' ') as [string, string];
    if (key === 'POST /logout') continue; // signs the caller out; covered by the auth tests
    // The restic REST backend lets in machine credentials only; local-storage.test.ts covers it.
    if (url.startsWith('/restic/')) continue;
    // So do the agents' own routes: log file uploads (machine-commands.test.ts) and unlink (machine-auth).
    if (url.startsWith('/agent/machines/')) continue;
    it(`${key} lets in exactly ${level}`, async () => {
      for (const caller of CALLERS) {
        const client = clients.get(caller);
        if (!client) throw new Error(caller);
        const response = await client.json(method as 'GET', url, method === 'GET' ? undefined : {});
        const denied = response.statusCode === 401 || response.statusCode === 403;
        expect({ caller, denied, status: response.statusCode }).toEqual({
          caller,
          denied: !ALLOWED[level].includes(caller),
          status: response.statusCode,
        });
        expect(response.statusCode).toBeLessThan(500);
        if (denied) expect(response.json().status).toBe('ERROR');
        // Without a session the answer is 'sign in', never 'forbidden' (issue 29).
        if (denied && caller === 'anonymous') expect(response.statusCode).toBe(401);
      }
    });

    // A script with no cookie, no CSRF token and no API token (issue 29): a route that needs a session says so
    // (401) before the CSRF check, which guards a session's cookies; a public route that changes state keeps it.
    const entry = allRoutes().find((r) => r.method === method && r.path === url);
    const unsafe = method !== 'GET' || changesState(method, url);
    if (unsafe && !entry?.machineAuth) {
      const expected = ALLOWED[level].includes('anonymous')
        ? { status: 403, code: 'CSRF_REJECTED' }
        : { status: 401, code: 'UNAUTHENTICATED' };
      it(`${key} answers a caller with no session, token or CSRF token ${expected.status}`, async () => {
        const response = await t.app.inject({
          method: method as 'POST',
          url,
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          payload: '{}',
        });
        expect({ status: response.statusCode, code: response.json().responseSummaryCode }).toEqual(expected);
      });
    }
  }
});
