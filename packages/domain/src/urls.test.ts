import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billingInfoPath,
  billingTarget,
  bucketPolicyPrincipalDeletePath,
  bucketsWithPolicyInfoPath,
  customerBillingServerChangePath,
  customerUrl,
  FALLBACK_IMAGES,
  idSegment,
  imageUrl,
  machineChannelDestination,
  machineQueue,
  machineUrl,
  machineUrlOf,
  migrationCancelPath,
  migrationCommandSequenceDeletePath,
  migrationCommandSequenceStopPath,
  migrationCommandSequencesPath,
  migrationQueue,
  migrationRollbackPath,
  migrationUrl,
  PACKAGE_PURCHASE_PATH,
  packageDeletePath,
  packageEditPath,
  packageMigrationsPath,
  packageRequestApprovePath,
  packageRequestDeclinePath,
  packageRequestsPagedPath,
  packageStatusChangePath,
  packageStoragePath,
  packageTemplatePath,
  packageTemplatesPagedPath,
  packageTemplatesPath,
  packageUpgradePath,
  packageUrl,
  requestHostName,
  resellerPortalHost,
  resellerPortalOrigin,
  resellerSettingsPath,
  setDefaultStorageAccountPath,
  storageAccountAccessKeysPath,
  storageAccountMigrationPath,
  storageAccountsPagedPath,
  storageAccountUrl,
  storageAccountUsersPath,
  storageLocationMakeDefaultPath,
  storageLocationPath,
  storageLocationsPath,
  storageLocationUrl,
  storageUserDeletePath,
  taskUrl,
  taskUrlOf,
  WS_SEND_PREFIXES,
  withPaging,
  withQuery,
} from './urls.js';

const task = { customerId: 1, packageId: 2, machineId: 3, taskId: 4 };

describe('page URLs per audience (000 §2, 001 §2, 002 §2.3)', () => {
  it('000 §2: customer, machine and task links of the provider, reseller and customer user', () => {
    expect(customerUrl('provider', 1)).toBe('/boltadmin/customers/1');
    expect(customerUrl('reseller', 1)).toBe('/admin/mycustomers/1');
    expect(machineUrl('provider', task)).toBe('/boltadmin/customers/1/backuppackages/2/backupmachines/3');
    expect(machineUrl('reseller', task)).toBe('/admin/mycustomers/1/backuppackages/2/backupmachines/3');
    expect(machineUrl('customer', { machineId: 3 })).toBe('/backupmachines/3');
    expect(taskUrl('provider', task)).toBe('/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4');
    expect(taskUrl('reseller', task)).toBe('/admin/mycustomers/1/backuppackages/2/backupmachines/3/backuptasks/4');
    expect(taskUrl('customer', { machineId: 3, taskId: 4 })).toBe('/backupmachines/3/backuptasks/4');
    expect(taskUrl('customer', task)).toBe('/backupmachines/3/backuptasks/4');
  });

  it("builds a machine's and its task's links from the machine's record, the same as from their refs", () => {
    const machine = { id: 3, customerId: 1, backupPackageId: 2 };
    for (const audience of ['provider', 'reseller', 'customer'] as const) {
      expect(machineUrlOf(audience, machine)).toBe(machineUrl(audience, task));
      expect(taskUrlOf(audience, machine, 4)).toBe(taskUrl(audience, task));
    }
  });

  it('000 §2, 002 §2.3: package, storage account, storage location and migration pages', () => {
    expect(packageUrl('reseller', task)).toBe('/admin/mycustomers/1/backuppackages/2');
    expect(packageUrl('provider', task)).toBe('/boltadmin/customers/1/backuppackages/2');
    expect(packageUrl('customer', { packageId: 2 })).toBe('/admin/backuppackages/2');
    expect(storageAccountUrl(7)).toBe('/boltadmin/storageaccounts/7');
    expect(storageLocationUrl(1, 5)).toBe('/boltadmin/customers/1/storagelocations/5');
    expect(migrationUrl(task, 6)).toBe('/boltadmin/customers/1/backuppackages/2/migrations/6');
  });

  it('an admin link without the customer id is refused', () => {
    expect(() => machineUrl('provider', { machineId: 3 } as never)).toThrow(TypeError);
  });

  it('ids must be positive whole numbers', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => customerUrl('provider', bad)).toThrow(RangeError);
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
        expect(idSegment(id)).toBe(String(id));
        expect(machineUrl('customer', { machineId: id })).toBe(`/backupmachines/${id}`);
      }),
    );
  });

  it('000 §2: logo and favicon from /public/downloads/img/{filename}, encoded as one segment', () => {
    expect(imageUrl('logo.png')).toBe('/public/downloads/img/logo.png');
    expect(imageUrl('my logo#1.png')).toBe('/public/downloads/img/my%20logo%231.png');
    expect(imageUrl('../secret')).toBe('/public/downloads/img/..%2Fsecret');
    for (const bad of ['', '.', '..']) expect(() => imageUrl(bad)).toThrow(RangeError);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s !== '.' && s !== '..'),
        (name) => {
          const segment = imageUrl(name).slice('/public/downloads/img/'.length);
          expect(segment).not.toContain('/');
          expect(decodeURIComponent(segment)).toBe(name);
        },
      ),
    );
    expect(FALLBACK_IMAGES.generic).toBe('/img/logo-generic.png');
  });
});

describe('query helpers', () => {
  it('appends parameters with & after an existing query and leaves out undefined ones', () => {
    expect(withQuery('/a', {})).toBe('/a');
    expect(withQuery('/a', { x: 'a b', y: undefined })).toBe('/a?x=a%20b');
    expect(withQuery('/a?x=1', { y: true })).toBe('/a?x=1&y=true');
    expect(withPaging('/a', { page: 2, size: 5 })).toBe('/a?size=5&page=2');
    expect(() => withPaging('/a', { page: -1, size: 5 })).toThrow(RangeError);
    expect(() => withPaging('/a', { page: 0, size: 0 })).toThrow(RangeError);
  });
});

describe('calls of 000 §7', () => {
  it('package templates for the provider and resellers', () => {
    expect(packageTemplatesPath('provider')).toBe('/boltadmin/backuppackagetemplates');
    expect(packageTemplatesPath('reseller')).toBe('/admin/mypackagetemplates');
    expect(packageTemplatePath('reseller', 9)).toBe('/admin/mypackagetemplates/9');
    expect(packageTemplatesPagedPath('provider')).toBe('/boltadmin/backuppackagetemplatespaginated?size=5&page=0');
    expect(packageTemplatesPagedPath('reseller', { page: 1, size: 5 })).toBe(
      '/admin/mypackagetemplatespaginated?size=5&page=1',
    );
  });

  it('reseller settings sections, the provider for a customer or the own account', () => {
    expect(resellerSettingsPath('reselleraccountsettings', 3)).toBe('/boltadmin/customers/3/reselleraccountsettings');
    expect(resellerSettingsPath('reselleremailsettings', null)).toBe('/admin/account/reselleremailsettings');
    expect(() => resellerSettingsPath('../x' as never, null)).toThrow(RangeError);
  });

  it('packages and requests', () => {
    expect(PACKAGE_PURCHASE_PATH).toBe('/admin/backuppackages');
    expect(packageEditPath(2)).toBe('/admin/backuppackages/2');
    expect(packageUpgradePath(2)).toBe('/admin/backuppackages/2/upgrade');
    expect(packageStoragePath(2)).toBe('/backuppackages/2/storage');
    expect(packageDeletePath('reseller', 1, 2)).toBe('/admin/mycustomers/1/backuppackages/2?delete=true');
    expect(packageDeletePath('provider', 1, 2)).toBe('/boltadmin/backuppackages/2?delete=true');
    expect(packageStatusChangePath('reseller', 1, 2, 'SUSPENDED')).toBe(
      '/admin/mycustomers/1/backuppackages/2?status=SUSPENDED',
    );
    expect(packageStatusChangePath('provider', 1, 2, 'ACTIVE')).toBe('/boltadmin/backuppackages/2?status=ACTIVE');
    expect(() => packageStatusChangePath('provider', 1, 2, 'GONE' as never)).toThrow(RangeError);
    expect(packageRequestsPagedPath('provider', { page: 3, size: 5 })).toBe(
      '/boltadmin/backuppackagerequestspaginated?size=5&page=3',
    );
    expect(packageRequestsPagedPath('reseller')).toBe('/admin/backuppackagerequestspaginated?size=5&page=0');
    expect(packageRequestApprovePath('provider', 5)).toBe('/boltadmin/backuppackagerequests/5/approve');
    expect(packageRequestDeclinePath('reseller', 5)).toBe('/admin/backuppackagerequests/5/decline');
  });
});

describe('calls of 001 §7', () => {
  it('storage accounts, locations and migrations', () => {
    expect(storageAccountsPagedPath()).toBe('/boltadmin/storageaccountspaginated?size=5&page=0');
    expect(setDefaultStorageAccountPath(7)).toBe(
      '/boltadmin/storageaccounts/setDefaultStorageAccount?storageAccountId=7',
    );
    expect(bucketsWithPolicyInfoPath(7)).toBe('/boltadmin/storageaccounts/7/bucketswithpolicyinfo');
    expect(storageAccountUsersPath(7)).toBe('/boltadmin/storageaccounts/7/users');
    expect(storageAccountAccessKeysPath(7)).toBe('/boltadmin/storageaccounts/7/accesskeys');
    expect(storageUserDeletePath(7)).toBe('/boltadmin/storageaccounts/7/deleteuser');
    expect(bucketPolicyPrincipalDeletePath(7)).toBe('/boltadmin/storageaccounts/7/deletebucketpolicyprincipal');
    expect(storageAccountMigrationPath(7)).toBe('/boltadmin/storageaccounts/7/migrations');
    expect(storageLocationsPath(1)).toBe('/boltadmin/customers/1/storagelocations');
    expect(storageLocationPath(1, 5)).toBe('/boltadmin/customers/1/storagelocations/5');
    expect(storageLocationMakeDefaultPath(1, 5)).toBe('/boltadmin/customers/1/storagelocations/5/makedefault');
    const base = '/boltadmin/customers/1/backuppackages/2/migrations';
    expect(packageMigrationsPath(task)).toBe(base);
    expect(migrationCancelPath(task, 6)).toBe(`${base}/6/cancel`);
    expect(migrationRollbackPath(task, 6)).toBe(`${base}/6/rollback`);
    expect(migrationCommandSequencesPath(task, 6)).toBe(`${base}/6/commandsequences`);
    expect(migrationCommandSequenceStopPath(task, 6)).toBe(`${base}/6/commandsequences/stop`);
    expect(migrationCommandSequenceDeletePath(task, 6)).toBe(`${base}/6/commandsequences/delete`);
  });

  it('the live channel', () => {
    expect(WS_SEND_PREFIXES).toEqual({ customer: '/ws/inbound', provider: '/ws/inbound/boltadmin' });
    expect(machineQueue('customer', 3)).toBe('/ws/queue/backupmachines/3');
    expect(machineQueue('provider', 3)).toBe('/ws/queue/boltadmin/backupmachines/3');
    expect(migrationQueue(6)).toBe('/ws/queue/boltadmin/migrations/6');
  });
});

describe('calls of 002 §7', () => {
  it('users of a customer and the billing redirect', () => {
    expect(billingTarget('billing', true)).toBe('clientarea.php?action=invoices&a=1');
    expect(billingTarget('support', false)).toBe('supporttickets.php?a=0');
    expect(billingInfoPath(billingTarget('billing', false))).toBe(
      '/billing/info?goToUrl=clientarea.php%3Faction%3Dinvoices%26a%3D0',
    );
  });

  it('customers', () => {
    expect(customerBillingServerChangePath(1, 2, 'banktransfer')).toBe(
      '/boltadmin/customers/1?whmcsServerId=2&paymentMethod=banktransfer',
    );
    expect(() => customerBillingServerChangePath(1, 2, 'cash' as never)).toThrow(RangeError);
  });

  it('task actions, snapshots and downloads', () => {});

  it('002 §7.8: channel destinations', () => {
    expect(machineChannelDestination(3, 'udpatetaskstatus')).toBe('/backupmachines/3/udpatetaskstatus');
    expect(machineChannelDestination(3, 'newtask')).toBe('/backupmachines/3/newtask');
  });
});

describe('a reseller portal address from its custom URL (ours)', () => {
  it('a host name is https on that host, a URL its origin, anything else nothing', () => {
    expect(resellerPortalOrigin('Backup.Example.com')).toBe('https://backup.example.com');
    expect(resellerPortalOrigin('http://backup.example.com:8080/some/path')).toBe('http://backup.example.com:8080');
    expect(resellerPortalOrigin('javascript:alert(1)')).toBeNull();
    expect(resellerPortalOrigin('  ')).toBeNull();
    expect(resellerPortalOrigin(null)).toBeNull();
    expect(resellerPortalHost('https://Backup.Example.com/x')).toBe('backup.example.com');
    expect(resellerPortalHost('backup.example.com')).toBe('backup.example.com');
  });
});

describe("a request's host name, matched with a reseller's portal host (ours)", () => {
  it('is lower case without the port or a trailing dot; an address in brackets or junk is none', () => {
    expect(requestHostName('Backup.Example.COM:8443')).toBe('backup.example.com');
    expect(requestHostName('backup.example.com.')).toBe('backup.example.com');
    expect(requestHostName('127.0.0.1:18380')).toBe('127.0.0.1');
    expect(requestHostName('[::1]:80')).toBeNull();
    expect(requestHostName('evil.test/path')).toBeNull();
    expect(requestHostName('a b.test')).toBeNull();
    expect(requestHostName('')).toBeNull();
    expect(requestHostName(undefined)).toBeNull();
  });

  it("any casing and port of a reseller's host name gives that host", () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65535 }), fc.boolean(), (domain, port, upper) => {
        const host = resellerPortalHost(domain);
        fc.pre(host !== null);
        const header = `${upper ? domain.toUpperCase() : domain}:${port}`;
        expect(requestHostName(header)).toBe(host);
      }),
    );
  });
});
