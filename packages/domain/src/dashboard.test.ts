import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './api.js';
import {
  ALL_CUSTOMERS_ID,
  CUSTOMER_SORT_COLUMNS,
  customerListQuerySchema,
  DASHBOARD_PAGE_SIZE,
  formatSort,
  type GettingStartedFlags,
  gettingStartedComplete,
  gettingStartedSteps,
  MACHINE_SORT_COLUMNS,
  machineListQuerySchema,
  machinesTabTitle,
  taskListQuerySchema,
  zeroCounts,
} from './dashboard.js';
import { TASK_DISPLAY_STATUSES } from './enums.js';

describe('dashboard queries (000 §2, §9)', () => {
  it('pages 12 rows from page 0, sorted by name ascending, when nothing is asked', () => {
    expect(DASHBOARD_PAGE_SIZE).toBe(12);
    expect(customerListQuerySchema.parse({})).toEqual({
      page: 0,
      size: 12,
      sort: { column: 'name', direction: 'asc' },
    });
    expect(taskListQuerySchema.parse({ sort: '' }).sort).toEqual({ column: 'name', direction: 'asc' });
  });

  it('reads sort=column,direction for every sortable column, both ways', () => {
    for (const column of MACHINE_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = formatSort({ column, direction });
        expect(machineListQuerySchema.parse({ sort }).sort).toEqual({ column, direction });
      }
    }
    expect(customerListQuerySchema.parse({ sort: 'superAdminEmail' }).sort).toEqual({
      column: 'superAdminEmail',
      direction: 'asc',
    });
  });

  it('refuses unknown sort columns and directions, bad pages and sizes, and unknown statuses', () => {
    expect(customerListQuerySchema.safeParse({ sort: 'password,asc' }).success).toBe(false);
    expect(customerListQuerySchema.safeParse({ sort: 'name,up' }).success).toBe(false);
    expect(customerListQuerySchema.safeParse({ sort: 'name,asc,extra' }).success).toBe(false);
    expect(machineListQuerySchema.safeParse({ page: '-1' }).success).toBe(false);
    expect(machineListQuerySchema.safeParse({ size: '1000' }).success).toBe(false);
    expect(machineListQuerySchema.safeParse({ status: 'RUNNING' }).success).toBe(false);
    expect(taskListQuerySchema.safeParse({ taskStatus: 'SUCCESSFUL_TASKS' }).success).toBe(false);
    expect(taskListQuerySchema.parse({ taskStatus: 'MISSED', page: '2' })).toMatchObject({
      taskStatus: 'MISSED',
      page: 2,
    });
  });

  it('filters on one pie at a time (000 §2: clicking a slice filters the table on its status)', () => {
    expect(customerListQuerySchema.safeParse({ taskStatus: 'FAILED_TASKS', statusGroup: 'ACTIVE' }).success).toBe(
      false,
    );
    expect(machineListQuerySchema.safeParse({ taskStatus: 'FAILED_TASKS', status: 'ACTIVE' }).success).toBe(false);
    expect(customerListQuerySchema.parse({ statusGroup: 'NEW_SIGNUP' }).statusGroup).toBe('NEW_SIGNUP');
  });

  it("refuses another table's filter and unknown parameters instead of ignoring them", () => {
    expect(machineListQuerySchema.safeParse({ statusGroup: 'ACTIVE' }).success).toBe(false);
    expect(taskListQuerySchema.safeParse({ status: 'ACTIVE' }).success).toBe(false);
    expect(customerListQuerySchema.safeParse({ search: 'x' }).success).toBe(false);
  });

  it('names every sortable column of the customers table', () => {
    expect(CUSTOMER_SORT_COLUMNS).toEqual(['name', 'superAdminEmail', 'status', 'taskStatus']);
  });

  it('builds the paths of the three tabs', () => {
    expect(ROUTES.dashboard.customerMachines.build({ customerId: ALL_CUSTOMERS_ID })).toBe(
      '/dashboard/customers/-1/machines',
    );
    expect(ROUTES.dashboard.customerMachineCounts.build({ customerId: 7 })).toBe(
      '/dashboard/customers/7/machines/counts',
    );
    expect(ROUTES.dashboard.machineTasks.build({ machineId: 3 })).toBe('/dashboard/backupmachines/3/tasks');
    expect(ROUTES.dashboard.machineTaskCounts.build({ machineId: 3 })).toBe('/dashboard/backupmachines/3/tasks/counts');
  });

  it('starts counts at zero for every status', () => {
    const counts = zeroCounts(TASK_DISPLAY_STATUSES);
    expect(Object.keys(counts)).toEqual([...TASK_DISPLAY_STATUSES]);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });
});

describe('machines tab title (000 §2)', () => {
  it("is '{name} machines', 'All machines' for customer -1, or 'Machines' without a name", () => {
    expect(machinesTabTitle({ customerId: 4, customerName: 'Contoso Ltd' })).toBe('Contoso Ltd machines');
    expect(machinesTabTitle({ customerId: ALL_CUSTOMERS_ID, customerName: null })).toBe('All machines');
    expect(machinesTabTitle({ customerId: 4, customerName: null })).toBe('Machines');
  });
});

describe('getting-started strip (000 §2)', () => {
  const flags = (overrides: Partial<GettingStartedFlags> = {}): GettingStartedFlags => ({
    boltCustomer: true,
    firstPaymentRequired: true,
    firstMachineLinkedToUser: false,
    firstBackupTaskCreated: false,
    ...overrides,
  });

  it('has four steps for a direct customer, the payment step current until paid', () => {
    const steps = gettingStartedSteps(flags());
    expect(steps.map((s) => s.step)).toEqual(['REGISTERED', 'PAYMENT', 'LINK_MACHINE', 'FIRST_TASK']);
    expect(steps.map((s) => s.done)).toEqual([true, false, false, false]);
    expect(steps.find((s) => s.current)?.step).toBe('PAYMENT');
  });

  it("has no payment step for a reseller's customer", () => {
    const steps = gettingStartedSteps(flags({ boltCustomer: false }));
    expect(steps.map((s) => s.step)).toEqual(['REGISTERED', 'LINK_MACHINE', 'FIRST_TASK']);
    expect(steps.find((s) => s.current)?.step).toBe('LINK_MACHINE');
  });

  it('marks the first incomplete step current, and none once all are done', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (bolt, payment, machine, task) => {
        const f = flags({
          boltCustomer: bolt,
          firstPaymentRequired: payment,
          firstMachineLinkedToUser: machine,
          firstBackupTaskCreated: task,
        });
        const steps = gettingStartedSteps(f);
        const firstIncomplete = steps.findIndex((s) => !s.done);
        expect(steps.filter((s) => s.current)).toHaveLength(firstIncomplete === -1 ? 0 : 1);
        if (firstIncomplete >= 0) expect(steps[firstIncomplete]?.current).toBe(true);
        expect(gettingStartedComplete(f)).toBe(firstIncomplete === -1);
      }),
    );
    expect(
      gettingStartedComplete(
        flags({ firstPaymentRequired: false, firstMachineLinkedToUser: true, firstBackupTaskCreated: true }),
      ),
    ).toBe(true);
  });
});
