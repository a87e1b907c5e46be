import { z } from 'zod';
import {
  AGGREGATE_TASK_STATUSES,
  type AggregateTaskStatus,
  CUSTOMER_STATUS_GROUPS,
  type CustomerStatus,
  type CustomerStatusGroup,
  type CustomerType,
  MACHINE_STATUSES,
  type MachineStatus,
  type OsFamily,
  type RunStatus,
  TASK_DISPLAY_STATUSES,
  type TaskBadge,
  type TaskDisplayStatus,
  type TaskStatus,
} from './enums.js';
import { pageSizeParam } from './envelope.js';
import { customerMachinesTitle, MESSAGES } from './messages.js';
import type { TaskVerification } from './verification.js';

/** 000 §9: page size 12 for the customers, machines and tasks tables. */
export const DASHBOARD_PAGE_SIZE = 12;
/** 000 §2: Select All selects customer id -1, which yields the 'All machines' tab (provider admins only). */
export const ALL_CUSTOMERS_ID = -1;
/** 000 §9: loading indicators stop 1 s after data is ready; the tab switch waits 50 ms. */
export const DASHBOARD_TIMINGS = {
  loadingLingerMs: 1000,
  tabSwitchDelayMs: 50,
  tabMountedTimeoutMs: 5000,
  /** Ours: live changes refresh the open dashboard at most this often (the first one at once). */
  liveRefreshMs: 1000,
} as const;

/** At most this many machine ids name a change; more than that is sent as 'everything may have changed' (empty list). */
export const DASHBOARD_CHANGE_MAX_IDS = 200;

/** Ours: the body of a message on DASHBOARD_TOPICS — the visible machines whose rows changed. */
export const dashboardChangeSchema = z.object({
  type: z.literal('dashboardChanged'),
  machineIds: z.array(z.number().int().positive()).max(DASHBOARD_CHANGE_MAX_IDS),
});
export type DashboardChange = z.infer<typeof dashboardChangeSchema>;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Sortable columns of each table (000 §2: every machines column; ours: every customers and tasks column too). */
export const CUSTOMER_SORT_COLUMNS = ['name', 'superAdminEmail', 'status', 'taskStatus'] as const;
export const MACHINE_SORT_COLUMNS = ['name', 'user', 'os', 'softwareVersion', 'status', 'taskStatus'] as const;
export const TASK_SORT_COLUMNS = ['name', 'schedule', 'status'] as const;
export type CustomerSortColumn = (typeof CUSTOMER_SORT_COLUMNS)[number];
export type MachineSortColumn = (typeof MACHINE_SORT_COLUMNS)[number];
export type TaskSortColumn = (typeof TASK_SORT_COLUMNS)[number];

export interface Sort<C extends string> {
  column: C;
  direction: SortDirection;
}

export const formatSort = <C extends string>(sort: Sort<C>): string => `${sort.column},${sort.direction}`;

/** `sort=name,asc`; a missing sort is by name, ascending. */
function sortParam<C extends string>(columns: readonly [C, ...C[]]) {
  return z
    .string()
    .optional()
    .transform((value, ctx): Sort<C> => {
      if (value === undefined || value === '') return { column: columns[0], direction: 'asc' };
      const [column, direction = 'asc', ...rest] = value.split(',');
      if (rest.length > 0 || !(columns as readonly string[]).includes(column ?? '') || !isDirection(direction)) {
        ctx.addIssue({ code: 'custom', message: `Sort must be one of ${columns.join(', ')}, then asc or desc` });
        return z.NEVER;
      }
      return { column: column as C, direction };
    });
}

const isDirection = (value: string): value is SortDirection => (SORT_DIRECTIONS as readonly string[]).includes(value);

const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: pageSizeParam(100, DASHBOARD_PAGE_SIZE),
};

/**
 * A table beside two pies (customers, machines): paging, its sort columns, and a filter by the task status pie
 * or by the table's own status pie (`ownPie`), one at a time.
 */
function twoPieQuerySchema<C extends string, F extends string, S extends z.ZodType>(
  columns: readonly [C, ...C[]],
  ownPie: F,
  ownPieStatus: S,
) {
  const ownFilter = { [ownPie]: ownPieStatus.optional() } as { [K in F]: z.ZodOptional<S> };
  return z
    .strictObject({
      ...paging,
      sort: sortParam(columns),
      taskStatus: z.enum(AGGREGATE_TASK_STATUSES).optional(),
      ...ownFilter,
    })
    .refine((q: Record<string, unknown>) => !(q.taskStatus && q[ownPie]), {
      message: 'Filter on one status at a time',
      path: [ownPie],
    });
}

/** The customers table: filter by the customer task status pie or the customer status pie (one at a time). */
export const customerListQuerySchema = twoPieQuerySchema(
  CUSTOMER_SORT_COLUMNS,
  'statusGroup',
  z.enum(CUSTOMER_STATUS_GROUPS),
);
export type CustomerListQuery = z.output<typeof customerListQuerySchema>;

/** The machines table: filter by the machine task status pie or the machine status pie. */
export const machineListQuerySchema = twoPieQuerySchema(MACHINE_SORT_COLUMNS, 'status', z.enum(MACHINE_STATUSES));
export type MachineListQuery = z.output<typeof machineListQuerySchema>;

/** The tasks table: filter by the task status pie (display status). */
export const taskListQuerySchema = z.strictObject({
  ...paging,
  sort: sortParam(TASK_SORT_COLUMNS),
  taskStatus: z.enum(TASK_DISPLAY_STATUSES).optional(),
});
export type TaskListQuery = z.output<typeof taskListQuerySchema>;

/** A customers-table row. */
export interface DashboardCustomerRow {
  id: number;
  /** companyName, or the super admin's full name when it is empty (000 §3). */
  name: string;
  superAdminEmail: string | null;
  /** The displayed status: SIGNUP_REQUESTED while the customer has no storage locations (000 §4). */
  status: CustomerStatus;
  statusGroup: CustomerStatusGroup;
  types: CustomerType[];
  taskStatus: AggregateTaskStatus;
  tasksInProgress: boolean;
  /** Manage link for the caller's audience (000 §2 routes). */
  customerUrl: string;
}

/** A machines-table row. */
export interface DashboardMachineRow {
  id: number;
  name: string;
  customerId: number;
  backupPackageId: number;
  /** The assigned user's full name; null when none. */
  user: string | null;
  osFamily: OsFamily;
  operatingSystem: string;
  softwareVersion: string;
  status: MachineStatus;
  taskStatus: AggregateTaskStatus;
  tasksInProgress: boolean;
  online: boolean;
  /** Manage link for the caller's audience (000 §2 routes). */
  backupMachineUrl: string;
}

/** A tasks-table row. */
export interface DashboardTaskRow {
  id: number;
  name: string;
  scheduleDescription: string;
  status: TaskStatus;
  displayStatus: TaskDisplayStatus;
  statusOfLastRun: RunStatus | null;
  /** PAUSED, RUN IN PROGRESS and the first applicable suspension or quota badge (000 §4). */
  badges: TaskBadge[];
  backupTaskUrl: string;
  /** Issue 32 item 3: the task's last verification ('Last verified' column). */
  verification: TaskVerification;
}

export interface DashboardCustomerCounts {
  total: number;
  taskStatus: Record<AggregateTaskStatus, number>;
  statusGroup: Record<CustomerStatusGroup, number>;
}

export interface DashboardMachineCounts {
  total: number;
  taskStatus: Record<AggregateTaskStatus, number>;
  status: Record<MachineStatus, number>;
}

export interface DashboardTaskCounts {
  total: number;
  taskStatus: Record<TaskDisplayStatus, number>;
}

/** The title of the machines tab (000 §2); the customer's name as its row shows it. */
export function machinesTabTitle(selection: { customerId: number; customerName: string | null }): string {
  if (selection.customerId === ALL_CUSTOMERS_ID) return MESSAGES.dashboard.allMachinesTitle;
  return selection.customerName ? customerMachinesTitle(selection.customerName) : MESSAGES.dashboard.machinesTitle;
}

/** A zeroed count per status, in enum order. */
export function zeroCounts<S extends string>(statuses: readonly S[]): Record<S, number> {
  return Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
}

// --- Getting-started strip (000 §2) ---------------------------------------------------------------

export interface GettingStartedFlags {
  /** A direct customer of the provider (only they see the payment step). */
  boltCustomer: boolean;
  firstPaymentRequired: boolean;
  firstMachineLinkedToUser: boolean;
  firstBackupTaskCreated: boolean;
}

export const GETTING_STARTED_STEPS = ['REGISTERED', 'PAYMENT', 'LINK_MACHINE', 'FIRST_TASK'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

export interface GettingStartedStepState {
  step: GettingStartedStep;
  done: boolean;
  current: boolean;
}

/**
 * The strip's steps (000 §2): registered (always done); pay, only for direct customers, done when no
 * first payment is required; install the client and link a machine; add the first backup task. The
 * current step is the first incomplete one; none is current when all are done.
 */
export function gettingStartedSteps(flags: GettingStartedFlags): GettingStartedStepState[] {
  const steps: { step: GettingStartedStep; done: boolean }[] = [
    { step: 'REGISTERED', done: true },
    ...(flags.boltCustomer ? [{ step: 'PAYMENT' as const, done: !flags.firstPaymentRequired }] : []),
    { step: 'LINK_MACHINE', done: flags.firstMachineLinkedToUser },
    { step: 'FIRST_TASK', done: flags.firstBackupTaskCreated },
  ];
  const current = steps.findIndex((s) => !s.done);
  return steps.map((s, i) => ({ ...s, current: i === current }));
}

/** Whether the strip shows at all: until every step is done. */
export const gettingStartedComplete = (flags: GettingStartedFlags): boolean =>
  gettingStartedSteps(flags).every((s) => s.done);
