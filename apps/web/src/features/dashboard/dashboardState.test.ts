import type { Actor } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import {
  type DashboardAction,
  type DashboardState,
  dashboardAudience,
  dashboardReducer,
  initialDashboardState,
  machineCalls,
  openTabs,
  tabTitle,
} from './dashboardState';

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 1,
  role: 'ROLE_CUSTOMER_USER',
  customerId: 7,
  resellerEnabled: false,
  boltCustomer: true,
  readOnly: false,
  ...overrides,
});

const provider = dashboardAudience(
  actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true }),
  null,
);
const customerUser = dashboardAudience(actor({}), 'Contoso Ltd');

const run = (state: DashboardState, ...actions: DashboardAction[]) => actions.reduce(dashboardReducer, state);

describe('dashboard audience (000 §2, §6)', () => {
  it('provider admins get the customers tab with Select All; reseller admins get My Customers without', () => {
    expect(provider).toMatchObject({
      root: 'customers',
      customersTitle: 'Customers',
      selectAll: true,
      ownCustomer: null,
    });
    const reseller = dashboardAudience(
      actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true }),
      'Northwind Backup',
    );
    expect(reseller).toMatchObject({
      root: 'customers',
      customersTitle: 'My Customers',
      selectAll: false,
      customersPage: '/admin/mycustomers',
    });
    expect(provider.customersPage).toBeNull();
  });

  it('customer audiences start on their own machines tab and have no customers tab', () => {
    for (const role of ['ROLE_CUSTOMER_SUPER_ADMIN_USER', 'ROLE_CUSTOMER_ADMIN_USER', 'ROLE_CUSTOMER_USER'] as const) {
      const audience = dashboardAudience(actor({ role }), 'Contoso Ltd');
      const state = initialDashboardState(audience);
      expect(openTabs(state)).toEqual(['machines']);
      expect(state.active).toBe('machines');
      expect(tabTitle('machines', state, audience)).toBe('Contoso Ltd machines');
      const calls = machineCalls(state, 7);
      expect({ list: calls.list.path, counts: calls.counts.path }).toEqual({
        list: '/dashboard/machines',
        counts: '/dashboard/machines/counts',
      });
    }
  });
});

describe('dashboard tabs (000 §2)', () => {
  const start = initialDashboardState(provider);

  it('selecting a customer opens and switches to its machines tab; a machine opens its tasks tab', () => {
    const withCustomer = run(start, { type: 'selectCustomer', customer: { id: 3, name: 'Adatum' } });
    expect(openTabs(withCustomer)).toEqual(['customers', 'machines']);
    expect(withCustomer.active).toBe('machines');
    expect(tabTitle('machines', withCustomer, provider)).toBe('Adatum machines');
    expect(machineCalls(withCustomer, 3).list.path).toBe('/dashboard/customers/3/machines');

    const withMachine = run(withCustomer, { type: 'selectMachine', machine: { id: 9, name: 'PC-1' } });
    expect(openTabs(withMachine)).toEqual(['customers', 'machines', 'tasks']);
    expect(withMachine.active).toBe('tasks');
    expect(tabTitle('tasks', withMachine, provider)).toBe('PC-1 tasks');

    // Another customer replaces the selection and closes the previous customer's tasks tab.
    const other = run(
      withMachine,
      { type: 'activate', tab: 'customers' },
      { type: 'selectCustomer', customer: { id: 4, name: 'Coho' } },
    );
    expect(openTabs(other)).toEqual(['customers', 'machines']);
    expect(other.active).toBe('machines');
  });

  it('Select All selects customer -1 and yields the All machines tab', () => {
    const all = run(start, { type: 'selectCustomer', customer: { id: -1, name: null } });
    expect(tabTitle('machines', all, provider)).toBe('All machines');
    expect(machineCalls(all, -1).list.path).toBe('/dashboard/customers/-1/machines');
  });

  it('closing a tab clears its selection and closes the tabs to its right; the first tab stays', () => {
    const full = run(
      start,
      { type: 'selectCustomer', customer: { id: 3, name: 'Adatum' } },
      { type: 'selectMachine', machine: { id: 9, name: 'PC-1' } },
    );
    const noMachines = run(full, { type: 'closeTab', tab: 'machines' });
    expect(openTabs(noMachines)).toEqual(['customers']);
    expect(noMachines).toMatchObject({ customer: null, machine: null, active: 'customers' });

    const noTasks = run(full, { type: 'closeTab', tab: 'tasks' });
    expect(openTabs(noTasks)).toEqual(['customers', 'machines']);
    expect(noTasks).toMatchObject({ machine: null, active: 'machines' });

    // Closing a tab that is not shown keeps the shown one.
    const onCustomers = run(full, { type: 'activate', tab: 'customers' }, { type: 'closeTab', tab: 'tasks' });
    expect(onCustomers.active).toBe('customers');

    expect(run(full, { type: 'closeTab', tab: 'customers' })).toEqual(full);
  });

  it('unselecting closes the dependent tabs', () => {
    const full = run(
      start,
      { type: 'selectCustomer', customer: { id: 3, name: 'Adatum' } },
      { type: 'selectMachine', machine: { id: 9, name: 'PC-1' } },
      { type: 'activate', tab: 'machines' },
    );
    const noMachine = run(full, { type: 'unselectMachine' });
    expect(openTabs(noMachine)).toEqual(['customers', 'machines']);
    expect(noMachine.active).toBe('machines');
    const none = run(full, { type: 'activate', tab: 'customers' }, { type: 'unselectCustomer' });
    expect(openTabs(none)).toEqual(['customers']);
    expect(none.active).toBe('customers');
  });

  it('customer audiences cannot close or change their own customer, and tabs that are not open cannot be shown', () => {
    const own = initialDashboardState(customerUser);
    expect(run(own, { type: 'closeTab', tab: 'machines' })).toEqual(own);
    expect(run(own, { type: 'unselectCustomer' })).toEqual(own);
    expect(run(own, { type: 'selectCustomer', customer: { id: 1, name: 'x' } })).toEqual(own);
    expect(run(own, { type: 'activate', tab: 'tasks' })).toEqual(own);
    const tasks = run(own, { type: 'selectMachine', machine: { id: 2, name: 'LT' } });
    expect(openTabs(tasks)).toEqual(['machines', 'tasks']);
    expect(run(start, { type: 'selectMachine', machine: { id: 2, name: 'LT' } })).toEqual(start);
  });
});
