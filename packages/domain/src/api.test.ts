import { describe, expect, expectTypeOf, it } from 'vitest';
import { allRoutes, type ResponseOf, ROUTES } from './api.js';
import type { CustomerDetail } from './customers.js';
import type { Paged } from './envelope.js';
import { ID_MAX, idParam } from './paths.js';
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
