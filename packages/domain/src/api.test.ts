import { describe, expect, expectTypeOf, it } from 'vitest';
import { allRoutes, type ResponseOf, ROUTES } from './api.js';
import type { CustomerDetail } from './customers.js';
import type { Paged } from './envelope.js';
import { idParam } from './ids.js';
import { ID_MAX, withPaging, withQuery } from './paths.js';
import {
  bucketPolicyPrincipalDeletePath,
  bucketsWithPolicyInfoPath,
  setDefaultStorageAccountPath,
  storageAccountAccessKeysPath,
  storageAccountsPagedPath,
  storageAccountUrl,
  storageAccountUsersPath,
  storageUserDeletePath,
} from './urls.js';
import type { UserRow } from './users.js';

describe('route table', () => {
  it('has one entry per method and path', () => {
    const keys = allRoutes().map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('builds paths with checked ids', () => {
    expect(ROUTES.users.detail.build({ userId: 7 })).toBe('/admin/account/users/7');
    expect(ROUTES.customers.reseller.userMachines.build({ customerId: 3, userId: 4 })).toBe(
      '/admin/mycustomers/3/users/4/backupmachines',
    );
    expect(ROUTES.users.list.build()).toBe('/admin/users');
    expect(() => ROUTES.users.detail.build({ userId: 0 })).toThrow(RangeError);
    expect(() => ROUTES.users.detail.build({ userId: 1.5 })).toThrow(RangeError);
    expect(() => ROUTES.users.detail.build({ userId: -1 })).toThrow(RangeError);
  });

  it('builds the paths the server serves (001 §7, 002 §7), queries with withQuery', () => {
    const task = { customerId: 1, packageId: 2, machineId: 3, taskId: 4 };
    const paging = { page: 0, size: 10 };
    expect(ROUTES.users.importExample.build()).toBe('/public/downloads/files/userimport/BulkUserImport.xlsx');
    // Machines and account (001 §7).
    const action = ROUTES.machines.action.build({ packageId: 2, machineId: 3 });
    expect(withQuery(action, { refresh: true })).toBe('/admin/backuppackages/2/backupmachines/3?refresh=true');
    expect(withQuery(action, { delete: true })).toBe('/admin/backuppackages/2/backupmachines/3?delete=true');
    expect(withQuery(action, { status: 'SUSPENDED' })).toBe(
      '/admin/backuppackages/2/backupmachines/3?status=SUSPENDED',
    );
    expect(ROUTES.machines.own.build()).toBe('/backupmachines');
    expect(ROUTES.machines.detail.build({ machineId: 3 })).toBe('/backupmachines/3');
    expect(ROUTES.machines.edit.build({ machineId: 3 })).toBe('/backupmachines/3');
    expect(ROUTES.machines.storage.build({ machineId: 3 })).toBe('/backupmachines/3/storage');
    expect(withQuery(ROUTES.machines.messages.build({ machineId: 3 }), paging)).toBe(
      '/backupmachines/3/messages?page=0&size=10',
    );
    expect(withQuery(ROUTES.machineCommands.uploadLogFiles.build(task), { uploadupdaterfiles: true })).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/commands/uploadlogfiles?uploadupdaterfiles=true',
    );
    expect(ROUTES.machineCommands.logFiles.build(task)).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/logfiles',
    );
    expect(withQuery(ROUTES.machineCommands.logFiles.build(task), { filename: 'agent log.txt' })).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/logfiles?filename=agent%20log.txt',
    );
    expect(ROUTES.account.get.build()).toBe('/admin/account');
    expect(ROUTES.account.edit.build()).toBe('/admin/account');
    expect(ROUTES.mail.failures.build()).toBe('/admin/mailfailures');
    // Realtime commands, users and the live channel (001 §7).
    const base = '/boltadmin/customers/1/backuppackages/2/backupmachines/3/realtimecommands';
    expect(ROUTES.realtimeCommands.list.build(task)).toBe(base);
    expect(ROUTES.realtimeCommands.submit.build(task)).toBe(base);
    expect(ROUTES.realtimeCommands.stop.build(task)).toBe(`${base}/stop`);
    expect(ROUTES.realtimeCommands.remove.build(task)).toBe(`${base}/delete`);
    expect(withQuery(ROUTES.users.unlink.build({ userId: 8, packageId: 2 }), { unlink: true })).toBe(
      '/admin/account/users/8/backuppackages/2?unlink=true',
    );
    expect(ROUTES.users.edit.build({ userId: 8 })).toBe('/admin/account/users/8');
    expect(ROUTES.users.remove.build({ userId: 8 })).toBe('/admin/account/users/8');
    expect(ROUTES.users.machines.build({ userId: 8 })).toBe('/admin/account/users/8/backupmachines');
    expect(ROUTES.users.packages.build({ userId: 8 })).toBe('/admin/account/users/8/backuppackages');
    expect(ROUTES.users.list.build()).toBe('/admin/users');
    expect({ customer: ROUTES.live.customer.build(), provider: ROUTES.live.provider.build() }).toEqual({
      customer: '/ws/connect',
      provider: '/ws/boltadmin/connect',
    });
    // Users of a customer (002 §7.1).
    expect(ROUTES.users.add.build()).toBe('/admin/account/users');
    expect(withQuery(ROUTES.users.edit.build({ userId: 8 }), { link: true })).toBe('/admin/account/users/8?link=true');
    expect(ROUTES.users.import.build()).toBe('/admin/account/users/import');
    expect(ROUTES.customers.provider.users.build({ customerId: 1 })).toBe('/boltadmin/customers/1/users');
    // Customers (002 §7.3).
    expect(ROUTES.customers.provider.remove.build({ customerId: 1 })).toBe('/boltadmin/customers/1');
    expect(ROUTES.customers.reseller.remove.build({ customerId: 1 })).toBe('/admin/mycustomers/1');
    expect(withQuery(ROUTES.customers.reseller.changeStatus.build({ customerId: 1 }), { status: 'ACTIVE' })).toBe(
      '/admin/mycustomers/1?status=ACTIVE',
    );
    expect(ROUTES.customers.plugins.build({ customerId: 1 })).toBe('/boltadmin/customers/1/plugins');
    expect(ROUTES.customers.makeReseller.build({ customerId: 1 })).toBe('/boltadmin/customers/1/makereseller');
    const lists = ROUTES.customers.lists;
    expect(withPaging(lists.customers.build(), paging)).toBe('/boltadmin/customerspaginated?size=10&page=0');
    expect(withQuery(withPaging(lists.customers.build(), paging), { search: 'acme & co' })).toBe(
      '/boltadmin/customerspaginated?size=10&page=0&search=acme%20%26%20co',
    );
    expect(withPaging(lists.customersToMakeResellers.build(), paging)).toBe(
      '/boltadmin/customerstomakeresellerspaginated?size=10&page=0',
    );
    expect(withPaging(lists.resellers.build(), paging)).toBe('/boltadmin/resellerspaginated?size=10&page=0');
    expect(withQuery(withPaging(lists.myCustomers.build(), paging), { search: 'acme' })).toBe(
      '/admin/mycustomerspaginated?size=10&page=0&search=acme',
    );
    expect(lists.myCustomers.build()).toBe('/admin/mycustomerspaginated');
    expect(ROUTES.customers.reseller.users.build({ customerId: 1 })).toBe('/admin/mycustomers/1/users');
    expect(ROUTES.customers.provider.packages.build({ customerId: 1 })).toBe('/boltadmin/customers/1/backuppackages');
    expect(ROUTES.customers.reseller.packages.build({ customerId: 1 })).toBe('/admin/mycustomers/1/backuppackages');
    // The tree call (002 §7.8), seeding, sign-up and the agent's calls.
    expect(ROUTES.treeItems.list.build({ machineId: 3 })).toBe('/backupmachines/3/treeitems');
    // The stored task the edit dialog starts from (task-form).
    expect(ROUTES.taskForm.definition.build({ machineId: 3, taskId: 4 })).toBe(
      '/backupmachines/3/backuptasks/4/definition',
    );
    expect(ROUTES.seeding.load.build(task)).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/seed',
    );
    expect(ROUTES.signUp.options.build()).toBe('/signup/options');
    expect(ROUTES.signUp.submit.build()).toBe('/signup');
    expect(ROUTES.machineLink.agentLink.build()).toBe('/agent/link');
    expect(ROUTES.machineLink.agentUnlink.build({ machineId: 3 })).toBe('/agent/machines/3/credential');
    expect(ROUTES.machineLink.linkingCodes.build()).toBe('/backupmachines/linkingcodes');
  });

  it('builds the task calls of 002 §7.5 and §7.7 for each audience', () => {
    const task = { customerId: 1, packageId: 2, machineId: 3, taskId: 4 };
    const paging = { page: 0, size: 10 };
    const t = ROUTES.tasks;
    expect(withQuery(t.customer.cancel.build({ ...task, actionId: 5 }), { type: 'BACKUP_RUN' })).toBe(
      '/backupmachines/3/backuptasks/4/backupactions/5/cancel?type=BACKUP_RUN',
    );
    expect(withQuery(t.reseller.cancel.build({ ...task, actionId: 5 }), { type: 'BACKUP_RESTORE' })).toBe(
      '/admin/mycustomers/1/backuppackages/2/backupmachines/3/backuptasks/4/backupactions/5/cancel?type=BACKUP_RESTORE',
    );
    expect(withQuery(t.provider.cancel.build({ ...task, actionId: 5 }), { type: 'BACKUP_RUN' })).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/backupactions/5/cancel?type=BACKUP_RUN',
    );
    expect(withPaging(withQuery(t.provider.actions.build(task), { type: 'BACKUP_SNAPSHOT' }), paging)).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/actions?type=BACKUP_SNAPSHOT&size=10&page=0',
    );
    expect(withPaging(t.customer.runs.build(task), paging)).toBe(
      '/backupmachines/3/backuptasks/4/backupruns?size=10&page=0',
    );
    expect(withPaging(withQuery(t.customer.actions.build(task), { type: 'BACKUP_RESTORE' }), paging)).toBe(
      '/backupmachines/3/backuptasks/4/actions?type=BACKUP_RESTORE&size=10&page=0',
    );
    expect(t.customer.snapshotStorage.build({ ...task, snapshotId: 9 })).toBe(
      '/backupmachines/3/backuptasks/4/backupsnapshots/9/storage',
    );
    expect(t.customer.storage.build(task)).toBe('/backupmachines/3/backuptasks/4/storage');
    expect(t.customer.list.build({ machineId: 3 })).toBe('/backupmachines/3/backuptasks');
    expect(t.provider.list.build(task)).toBe('/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks');
    expect(t.reseller.list.build(task)).toBe('/admin/mycustomers/1/backuppackages/2/backupmachines/3/backuptasks');
    expect(t.customer.detail.build(task)).toBe('/backupmachines/3/backuptasks/4');
    expect(t.reseller.snapshots.build(task)).toBe(
      '/admin/mycustomers/1/backuppackages/2/backupmachines/3/backuptasks/4/backupsnapshots',
    );
    expect(t.customer.actions.query.safeParse({ type: 'BACKUP_ANYTHING' }).success).toBe(false);
  });

  it('002 §7.5, §7.6: snapshot archive deletion, downloads, the snapshot tree and restores', () => {
    const run = { machineId: 3, taskId: 4, runId: 11 };
    expect(
      withQuery(ROUTES.restore.deleteArchive.build({ machineId: 3, taskId: 4, snapshotId: 9 }), {
        archivedelete: true,
      }),
    ).toBe('/backupmachines/3/backuptasks/4/backupsnapshots/9?archivedelete=true');
    expect(ROUTES.restore.initiateDownload.build(run)).toBe(
      '/backupmachines/3/backuptasks/4/backupruns/11/downloads/initiate',
    );
    expect(ROUTES.restore.download.build({ ...run, download: 'a1/b' })).toBe(
      '/backupmachines/3/backuptasks/4/backupruns/11/downloads/a1%2Fb',
    );
    expect(() => ROUTES.restore.download.build({ ...run, download: '..' })).toThrow(RangeError);
    expect(withQuery(ROUTES.restore.snapshotTree.build(run), { path: '/home/a b' })).toBe(
      '/backupmachines/3/backuptasks/4/backupruns/11/tree?path=%2Fhome%2Fa%20b',
    );
    expect(() => ROUTES.restore.initiateDownload.build({ ...run, runId: 0 })).toThrow(RangeError);
  });

  it('refuses a bad id in every id segment', () => {
    const task = { customerId: 1, packageId: 2, machineId: 3, taskId: 4 };
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => ROUTES.customers.provider.remove.build({ customerId: bad })).toThrow(RangeError);
      expect(() => ROUTES.customers.reseller.users.build({ customerId: bad })).toThrow(RangeError);
      expect(() => ROUTES.users.unlink.build({ userId: 8, packageId: bad })).toThrow(RangeError);
      expect(() => ROUTES.realtimeCommands.list.build({ ...task, machineId: bad })).toThrow(RangeError);
      expect(() => ROUTES.seeding.load.build({ ...task, taskId: bad })).toThrow(RangeError);
      expect(() => ROUTES.machines.action.build({ packageId: bad, machineId: 3 })).toThrow(RangeError);
      expect(() => ROUTES.treeItems.list.build({ machineId: bad })).toThrow(RangeError);
      expect(() => ROUTES.machineLink.agentUnlink.build({ machineId: bad })).toThrow(RangeError);
    }
  });

  it('lets the dashboard name every customer (-1) and nothing else below 1', () => {
    expect(ROUTES.dashboard.customerMachines.build({ customerId: -1 })).toBe('/dashboard/customers/-1/machines');
    expect(() => ROUTES.dashboard.customerMachines.build({ customerId: -2 })).toThrow(RangeError);
    expect(ROUTES.dashboard.customerMachines.params.safeParse({ customerId: '-1' }).success).toBe(true);
    expect(ROUTES.dashboard.customerMachines.params.safeParse({ customerId: '0' }).success).toBe(false);
  });

  it('encodes text segments and refuses dot segments', () => {
    expect(ROUTES.restic.readObject.build({ machineId: 1, type: 'data', name: 'a b' })).toBe('/restic/1/data/a%20b');
    expect(() => ROUTES.restic.readObject.build({ machineId: 1, type: 'data', name: '..' })).toThrow(RangeError);
  });

  it('parses id path parameters with the one id schema', () => {
    expect(ROUTES.users.detail.params.parse({ userId: '12' })).toEqual({ userId: 12 });
    expect(ROUTES.users.detail.params.safeParse({ userId: String(ID_MAX + 1) }).success).toBe(false);
    expect(ROUTES.users.detail.params.safeParse({ userId: 'x' }).success).toBe(false);
    expect(idParam.parse('5')).toBe(5);
  });

  it('carries each answer type in the entry', () => {
    expectTypeOf<ResponseOf<typeof ROUTES.users.list>>().toEqualTypeOf<Paged<UserRow>>();
    expectTypeOf<ResponseOf<typeof ROUTES.customers.provider.detail>>().toEqualTypeOf<CustomerDetail>();
    expectTypeOf<ResponseOf<typeof ROUTES.users.remove>>().toEqualTypeOf<null>();
    expectTypeOf(ROUTES.users.detail.build).parameters.toEqualTypeOf<[params: { userId: number }]>();
    expectTypeOf(ROUTES.dashboard.gettingStarted.build).parameters.toEqualTypeOf<[]>();
  });
});

describe('the provider task dashboards and the volume snapshots call (002 §2.6, §7.3)', () => {
  it('builds their paths, the volume snapshots PUT on the provider task path', () => {
    const r = ROUTES.taskOverview;
    expect(r.running.build()).toBe('/boltadmin/backuptasks/running');
    expect(r.nextPeriod.build()).toBe('/boltadmin/backuptasks/nextperiod');
    expect(r.beingDeleted.build()).toBe('/boltadmin/backuptasks/beingdeleted');
    expect(r.counts.build()).toBe('/boltadmin/backuptasks/counts');
    expect(r.volumeSnapshots.method).toBe('PUT');
    expect(r.volumeSnapshots.build({ customerId: 1, packageId: 2, machineId: 3, taskId: 4 })).toBe(
      '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4',
    );
    expect(r.volumeSnapshots.body.parse({ volumeSnapshotsEnabled: 'true' })).toEqual({ volumeSnapshotsEnabled: true });
    for (const entry of [r.running, r.nextPeriod, r.beingDeleted, r.counts, r.volumeSnapshots]) {
      expect(entry.access).toBe('providerAdmin');
    }
  });
});

describe('the storage account calls (001 §7)', () => {
  it('builds the paths of 001 §7 as the urls module has them, all for provider admins', () => {
    const r = ROUTES.storageAccounts;
    const storageAccountId = 7;
    expect(withPaging(r.list.build(), { page: 0, size: 5 })).toBe(storageAccountsPagedPath());
    expect(withQuery(r.setDefault.build(), { storageAccountId })).toBe(setDefaultStorageAccountPath(storageAccountId));
    expect(r.detail.build({ storageAccountId })).toBe(storageAccountUrl(storageAccountId));
    expect(r.buckets.build({ storageAccountId })).toBe(bucketsWithPolicyInfoPath(storageAccountId));
    expect(r.users.build({ storageAccountId })).toBe(storageAccountUsersPath(storageAccountId));
    expect(r.accessKeys.build({ storageAccountId })).toBe(storageAccountAccessKeysPath(storageAccountId));
    expect(r.deleteUser.build({ storageAccountId })).toBe(storageUserDeletePath(storageAccountId));
    expect(r.deletePrincipal.build({ storageAccountId })).toBe(bucketPolicyPrincipalDeletePath(storageAccountId));
    expect([r.deleteUser.method, r.deletePrincipal.method, r.setDefault.method]).toEqual(['PUT', 'PUT', 'GET']);
    for (const entry of Object.values(r)) expect(entry.access).toBe('providerAdmin');
  });
});
