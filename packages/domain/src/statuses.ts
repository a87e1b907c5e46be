import {
  AGGREGATE_TASK_STATUS_TEXTS,
  type AggregateTaskStatus,
  type BadgeVariant,
  CUSTOMER_STATUS_GROUP_TEXTS,
  CUSTOMER_STATUS_TEXTS,
  CUSTOMER_TYPE_TEXTS,
  type CustomerStatus,
  type CustomerStatusGroup,
  type CustomerType,
  MACHINE_STATUS_TEXTS,
  type MachineStatus,
  PACKAGE_STATUS_TEXTS,
  type PackageStatus,
  RUN_STATUS_TEXTS,
  type RunStatus,
  TASK_BADGE_TEXTS,
  TASK_DISPLAY_STATUS_TEXTS,
  TASK_STATUS_TEXTS,
  type TaskBadge,
  type TaskDisplayStatus,
  type TaskStatus,
  USER_STATUS_TEXTS,
  type UserStatus,
} from './enums.js';

/** A badge as every screen draws it: the text and a Bootstrap colour name. */
export interface StatusBadge {
  text: string;
  variant: BadgeVariant;
}

/** A status's badge: its text and its colour, each from its table. */
function badgeOf<S extends string>(texts: Record<S, string>, variants: Record<S, BadgeVariant>) {
  return (s: S): StatusBadge => ({ text: texts[s], variant: variants[s] });
}

// --- What stops a task from running (000 §4, display status step 1) --------------------------------

/**
 * Machine statuses that make its tasks not runnable: over its per-machine quota, suspended or blocked,
 * and the statuses a machine takes from its package (PACKAGE_SUSPENDED, PACKAGE_OVER_QUOTA), which
 * say the same thing as the package rule one level up.
 */
export function machineStopsTasks(status: MachineStatus): boolean {
  return status !== 'ACTIVE';
}

/** Package statuses that make its tasks not runnable: over quota, suspended or blocked (000 §4). */
export function packageStopsTasks(status: PackageStatus): boolean {
  return status === 'OVER_QUOTA' || status === 'SUSPENDED' || status === 'BLOCKED';
}

/** Customer statuses that make its tasks not runnable: suspended or blocked (000 §4). */
export function customerStopsTasks(status: CustomerStatus): boolean {
  return status === 'SUSPENDED' || status === 'BLOCKED';
}

/** A run that has started and not ended: INITIATED or IN_PROGRESS (000 §4, 002 §4.2 'busy'). */
export function isBusyRunStatus(status: RunStatus | null | undefined): boolean {
  return status === 'INITIATED' || status === 'IN_PROGRESS';
}

// --- Task display status (000 §4) -----------------------------------------------------------------

/** What the display status of a task is computed from (000 §3 'Backup task'). */
export interface TaskStatusInput {
  /** The raw, stored task status. */
  status: TaskStatus;
  lastExecutionMissed: boolean;
  statusOfLastRun: RunStatus | null;
  statusOfRunBeforeLast: RunStatus | null;
  machineStatus: MachineStatus;
  packageStatus: PackageStatus;
  customerStatus: CustomerStatus;
}

/**
 * Whether the task may run at all: step 1 of the display rule. The agent's scheduler and the server's
 * run-now check use this too, so a task the dashboard calls NOT_RUNNABLE is never started.
 */
export function isTaskRunnable(task: TaskStatusInput): boolean {
  return !(
    task.status === 'PAUSED' ||
    machineStopsTasks(task.machineStatus) ||
    packageStopsTasks(task.packageStatus) ||
    customerStopsTasks(task.customerStatus)
  );
}

function statusFromRun(run: RunStatus | null): TaskDisplayStatus {
  if (run === 'FAILED') return 'LAST_FAILED';
  if (run === 'FINISHED_SUCCESS' || run === 'FINISHED_WARNINGS') return 'LAST_SUCCEEDED';
  return 'NOT_COMPLETED_YET';
}

/**
 * The task's display status, checked in the order of 000 §4: not runnable; missed; the raw states
 * AWAITING_SEED, BEING_DELETED and DELETION_FAILED; then the last run, or the run before last while
 * the last one is still initiated or in progress (so a running task keeps showing how it last ended).
 */
export function taskDisplayStatus(task: TaskStatusInput): TaskDisplayStatus {
  if (!isTaskRunnable(task)) return 'NOT_RUNNABLE';
  if (task.lastExecutionMissed) return 'MISSED';
  if (task.status === 'AWAITING_SEED' || task.status === 'BEING_DELETED' || task.status === 'DELETION_FAILED') {
    return task.status;
  }
  return statusFromRun(isBusyRunStatus(task.statusOfLastRun) ? task.statusOfRunBeforeLast : task.statusOfLastRun);
}

/**
 * The one suspension or quota badge a task shows (000 §4: 'only the first applicable one shows').
 * The spec lists the badges without an order; ours goes from the widest owner to the narrowest
 * (customer, package, machine), and suspension before quota at the same level, because the wider
 * cause is the one the user has to resolve first. BLOCKED shows as suspended (the spec has no blocked
 * badge), and the machine statuses PACKAGE_SUSPENDED and PACKAGE_OVER_QUOTA show the package badge.
 */
export function suspensionBadge(
  task: Pick<TaskStatusInput, 'machineStatus' | 'packageStatus' | 'customerStatus'>,
): TaskBadge | null {
  if (customerStopsTasks(task.customerStatus)) return 'CUSTOMER_SUSPENDED';
  if (task.packageStatus === 'SUSPENDED' || task.packageStatus === 'BLOCKED') return 'PACKAGE_SUSPENDED';
  if (task.machineStatus === 'PACKAGE_SUSPENDED') return 'PACKAGE_SUSPENDED';
  if (task.packageStatus === 'OVER_QUOTA' || task.machineStatus === 'PACKAGE_OVER_QUOTA') return 'PACKAGE_OVER_QUOTA';
  if (task.machineStatus === 'SUSPENDED' || task.machineStatus === 'BLOCKED') return 'MACHINE_SUSPENDED';
  if (task.machineStatus === 'OVER_PER_MACHINE_QUOTA') return 'MACHINE_OVER_QUOTA';
  return null;
}

/** Colours of the extra task badges: suspensions red, quotas orange, pause grey, a running run blue. */
export const TASK_BADGE_VARIANTS: Record<TaskBadge, BadgeVariant> = {
  PAUSED: 'secondary',
  RUN_IN_PROGRESS: 'info',
  CUSTOMER_SUSPENDED: 'danger',
  PACKAGE_SUSPENDED: 'danger',
  PACKAGE_OVER_QUOTA: 'warning',
  MACHINE_SUSPENDED: 'danger',
  MACHINE_OVER_QUOTA: 'warning',
};

/**
 * The extra badges beside a task's display status (000 §4), in this order: PAUSED when the raw status
 * is paused, RUN IN PROGRESS when the last run is initiated or in progress (a paused task may still
 * be finishing a run, 002 §4.2), then at most one suspension or quota badge.
 */
export function taskBadges(task: TaskStatusInput): TaskBadge[] {
  const badges: TaskBadge[] = [];
  if (task.status === 'PAUSED') badges.push('PAUSED');
  if (isBusyRunStatus(task.statusOfLastRun)) badges.push('RUN_IN_PROGRESS');
  const suspension = suspensionBadge(task);
  if (suspension) badges.push(suspension);
  return badges;
}

export function taskBadge(badge: TaskBadge): StatusBadge {
  return { text: TASK_BADGE_TEXTS[badge], variant: TASK_BADGE_VARIANTS[badge] };
}

// --- Aggregate status of a customer or machine (000 §4) ----------------------------------------------

/** How one task counts towards its customer's and machine's aggregate status. */
export type AggregateCategory = 'failed' | 'missed' | 'successful' | 'neverRun' | 'ignored';

/**
 * 000 §4: not runnable, awaiting seed, being deleted and deletion failed tasks are ignored; missed
 * counts as missed, failed as failed, success or warnings as successful, never completed as never run.
 */
export function aggregateCategory(status: TaskDisplayStatus): AggregateCategory {
  switch (status) {
    case 'LAST_FAILED':
      return 'failed';
    case 'MISSED':
      return 'missed';
    case 'LAST_SUCCEEDED':
      return 'successful';
    case 'NOT_COMPLETED_YET':
      return 'neverRun';
    case 'NOT_RUNNABLE':
    case 'AWAITING_SEED':
    case 'BEING_DELETED':
    case 'DELETION_FAILED':
      return 'ignored';
  }
}

/**
 * Per-category task counts of a customer or machine. The dashboard keeps these in stored counters
 * (DESIGN §9) and adjusts them when a task changes, instead of scanning all tasks per request.
 * `ignored` is counted so that a list of only ignored tasks (NO_RUNNABLE_TASKS) stays distinct from an
 * empty list (NO_COMPLETED_TASKS). `inProgress` counts tasks whose last run is initiated or in
 * progress, ignored tasks included; it overlaps the other counters.
 */
export interface AggregateCounts {
  failed: number;
  missed: number;
  successful: number;
  neverRun: number;
  ignored: number;
  inProgress: number;
}

const COUNT_KEYS = ['failed', 'missed', 'successful', 'neverRun', 'ignored', 'inProgress'] as const;

export const EMPTY_AGGREGATE_COUNTS: Readonly<AggregateCounts> = Object.freeze({
  failed: 0,
  missed: 0,
  successful: 0,
  neverRun: 0,
  ignored: 0,
  inProgress: 0,
});

/** The counts one task contributes. */
export function countsOfTask(task: TaskStatusInput): AggregateCounts {
  const counts = { ...EMPTY_AGGREGATE_COUNTS };
  counts[aggregateCategory(taskDisplayStatus(task))] = 1;
  counts.inProgress = isBusyRunStatus(task.statusOfLastRun) ? 1 : 0;
  return counts;
}

function combine(a: AggregateCounts, b: AggregateCounts, sign: 1 | -1): AggregateCounts {
  const out = { ...EMPTY_AGGREGATE_COUNTS };
  for (const key of COUNT_KEYS) out[key] = a[key] + sign * b[key];
  return out;
}

export function addCounts(a: AggregateCounts, b: AggregateCounts): AggregateCounts {
  return combine(a, b, 1);
}

export function subtractCounts(a: AggregateCounts, b: AggregateCounts): AggregateCounts {
  return combine(a, b, -1);
}

/**
 * The change to apply to stored counters when a task goes from `before` to `after`; null stands for
 * a task that did not exist (created) or no longer exists (removed). Entries may be negative.
 */
export function countsDelta(before: TaskStatusInput | null, after: TaskStatusInput | null): AggregateCounts {
  return subtractCounts(
    after ? countsOfTask(after) : EMPTY_AGGREGATE_COUNTS,
    before ? countsOfTask(before) : EMPTY_AGGREGATE_COUNTS,
  );
}

/**
 * Counts of a group of tasks once their machine, package or customer stops them: every task is then
 * NOT_RUNNABLE and ignored; runs already under way keep counting as in progress. With this the server
 * can keep a machine's counters as if its owners were active and apply a suspension at read time.
 */
export function countsWhenStopped(counts: AggregateCounts): AggregateCounts {
  return {
    ...EMPTY_AGGREGATE_COUNTS,
    ignored: counts.failed + counts.missed + counts.successful + counts.neverRun + counts.ignored,
    inProgress: counts.inProgress,
  };
}

/**
 * The aggregate status from counts (000 §4 result list). UNDEFINED, which no task list produces, is
 * returned when the counters are impossible (negative or fractional): a stored counter went wrong and
 * the dashboard says so instead of showing a wrong colour.
 */
export function aggregateFromCounts(counts: AggregateCounts): AggregateTaskStatus {
  if (COUNT_KEYS.some((key) => !Number.isInteger(counts[key]) || counts[key] < 0)) return 'UNDEFINED';
  if (counts.failed > 0 && counts.missed > 0) return 'FAILED_AND_MISSED_TASKS';
  if (counts.failed > 0) return 'FAILED_TASKS';
  if (counts.missed > 0) return 'MISSED_TASKS';
  if (counts.successful > 0) return 'SUCCESSFUL_TASKS';
  if (counts.neverRun > 0) return 'NO_COMPLETED_TASKS';
  // 000 §4: 'A customer with no task list yields NO_COMPLETED_TASKS' (nothing has completed yet); a
  // list that holds only ignored tasks has nothing runnable.
  if (counts.ignored === 0) return 'NO_COMPLETED_TASKS';
  return 'NO_RUNNABLE_TASKS';
}

/** The 'tasks in progress' flag from counts (000 §4). */
export function tasksInProgressFromCounts(counts: AggregateCounts): boolean {
  return counts.inProgress > 0;
}

/** Sum of the counts of a task list. */
export function countsOfTasks(tasks: Iterable<TaskStatusInput>): AggregateCounts {
  let counts: AggregateCounts = { ...EMPTY_AGGREGATE_COUNTS };
  for (const task of tasks) counts = addCounts(counts, countsOfTask(task));
  return counts;
}

/**
 * Aggregate status of a customer or machine from its tasks (000 §4). A missing (null) or empty task
 * list yields NO_COMPLETED_TASKS; a list of only ignored tasks yields NO_RUNNABLE_TASKS.
 */
export function aggregateStatus(tasks: readonly TaskStatusInput[] | null | undefined): AggregateTaskStatus {
  return aggregateFromCounts(countsOfTasks(tasks ?? []));
}

/** 000 §4: set when any task, ignored ones included, has a run initiated or in progress. */
export function tasksInProgress(tasks: readonly TaskStatusInput[] | null | undefined): boolean {
  return (tasks ?? []).some((task) => isBusyRunStatus(task.statusOfLastRun));
}

// --- Customers (000 §4 'Customer display', 002 §2.5) ---------------------------------------------

/** The customer fields the display rules read. */
export interface CustomerDisplayInput {
  status: CustomerStatus;
  /** Number of storage locations (with their accounts) the customer has (000 §3, 002 §3). */
  storageLocationCount: number;
}

/** 002 §2.5: a customer with no storage locations or accounts is labelled NEW SIGNUP. */
export function isNewSignup(customer: Pick<CustomerDisplayInput, 'storageLocationCount'>): boolean {
  return customer.storageLocationCount <= 0;
}

export const NEW_SIGNUP_BADGE: StatusBadge = { text: 'NEW SIGNUP', variant: 'info' };

/**
 * 000 §4: a customer with no storage locations is shown as SIGNUP_REQUESTED, whatever its stored
 * status; status changes are still offered from the stored status (transitions.ts).
 */
export function customerDisplayStatus(customer: CustomerDisplayInput): CustomerStatus {
  return isNewSignup(customer) ? 'SIGNUP_REQUESTED' : customer.status;
}

/** The customer status pie slice a displayed status falls in (000 §4). */
export function customerStatusGroup(displayStatus: CustomerStatus): CustomerStatusGroup {
  switch (displayStatus) {
    case 'ACTIVE':
      return 'ACTIVE';
    case 'SUSPENDED':
    case 'BLOCKED':
      return 'SUSPENDED_OR_BLOCKED';
    case 'APPROVED':
      return 'APPROVED';
    case 'SIGNUP_REQUESTED':
      return 'NEW_SIGNUP';
  }
}

/** The customer fields the type badges read (002 §3 'Customer display'). */
export interface CustomerTypeInput {
  /** null for the provider's own customers. */
  parentResellerCustomerId: number | null;
  /** The customer's reseller settings say reseller is enabled. */
  resellerEnabled: boolean;
}

export const CUSTOMER_TYPE_VARIANTS: Record<CustomerType, BadgeVariant> = {
  PROVIDER_OWN: 'primary',
  RESELLER_CLIENT: 'info',
  RESELLER: 'dark',
};

/**
 * Type badges of a customer row (002 §2.5). Who owns the customer (provider or a reseller) is always
 * shown, exactly one of the two; RESELLER is added after it when the customer is itself a reseller, so
 * a reseller under the provider shows DIRECT and RESELLER, and a reseller's reseller shows RESELLER
 * CLIENT and RESELLER.
 */
export function customerTypes(customer: CustomerTypeInput): CustomerType[] {
  const types: CustomerType[] = [customer.parentResellerCustomerId === null ? 'PROVIDER_OWN' : 'RESELLER_CLIENT'];
  if (customer.resellerEnabled) types.push('RESELLER');
  return types;
}

export function customerTypeBadges(customer: CustomerTypeInput): StatusBadge[] {
  return customerTypes(customer).map((type) => ({
    text: CUSTOMER_TYPE_TEXTS[type],
    variant: CUSTOMER_TYPE_VARIANTS[type],
  }));
}

/** 000 §2: a package with an up/downgrade pending shows CHANGE REQUESTED. */
export const CHANGE_REQUESTED_BADGE: StatusBadge = { text: 'CHANGE REQUESTED', variant: 'warning' };

export function packageChangeBadge(pkg: { upOrDownGradeRequested: boolean }): StatusBadge | null {
  return pkg.upOrDownGradeRequested ? CHANGE_REQUESTED_BADGE : null;
}

// --- Badge colours (ours: the spec gives colours only for migrations, commands and usage) ---------------

/**
 * One colour language across entities: ACTIVE green, over quota orange, suspended red, blocked dark,
 * requested or new blue-green (info), approved blue (primary); for tasks, success green, failure red,
 * missed orange, never completed info, states outside the aggregate grey or dark.
 */
export const TASK_DISPLAY_STATUS_VARIANTS: Record<TaskDisplayStatus, BadgeVariant> = {
  MISSED: 'warning',
  LAST_SUCCEEDED: 'success',
  LAST_FAILED: 'danger',
  NOT_COMPLETED_YET: 'info',
  AWAITING_SEED: 'primary',
  BEING_DELETED: 'dark',
  DELETION_FAILED: 'danger',
  NOT_RUNNABLE: 'secondary',
};

export const AGGREGATE_TASK_STATUS_VARIANTS: Record<AggregateTaskStatus, BadgeVariant> = {
  NO_COMPLETED_TASKS: 'info',
  NO_RUNNABLE_TASKS: 'secondary',
  SUCCESSFUL_TASKS: 'success',
  MISSED_TASKS: 'warning',
  FAILED_TASKS: 'danger',
  FAILED_AND_MISSED_TASKS: 'danger',
  UNDEFINED: 'dark',
};

export const TASK_STATUS_VARIANTS: Record<TaskStatus, BadgeVariant> = {
  ACTIVE: 'success',
  PAUSED: 'secondary',
  AWAITING_SEED: 'primary',
  BEING_DELETED: 'dark',
  DELETION_FAILED: 'danger',
};

export const CUSTOMER_STATUS_VARIANTS: Record<CustomerStatus, BadgeVariant> = {
  ACTIVE: 'success',
  APPROVED: 'primary',
  BLOCKED: 'dark',
  SIGNUP_REQUESTED: 'info',
  SUSPENDED: 'danger',
};

export const PACKAGE_STATUS_VARIANTS: Record<PackageStatus, BadgeVariant> = {
  REQUESTED: 'info',
  APPROVED: 'primary',
  ACTIVE: 'success',
  OVER_QUOTA: 'warning',
  SUSPENDED: 'danger',
  BLOCKED: 'dark',
};

export const MACHINE_STATUS_VARIANTS: Record<MachineStatus, BadgeVariant> = {
  ACTIVE: 'success',
  OVER_PER_MACHINE_QUOTA: 'warning',
  SUSPENDED: 'danger',
  PACKAGE_SUSPENDED: 'danger',
  PACKAGE_OVER_QUOTA: 'warning',
  BLOCKED: 'dark',
};

export const USER_STATUS_VARIANTS: Record<UserStatus, BadgeVariant> = {
  ACTIVE: 'success',
  INACTIVE: 'secondary',
};

/** Run and action status colours, matching the progress bar of 002 §4.2 (failed red, warnings orange). */
export const RUN_STATUS_VARIANTS: Record<RunStatus, BadgeVariant> = {
  INITIATED: 'secondary',
  IN_PROGRESS: 'info',
  FAILED: 'danger',
  FINISHED_SUCCESS: 'success',
  FINISHED_WARNINGS: 'warning',
};

export const taskDisplayStatusBadge = badgeOf(TASK_DISPLAY_STATUS_TEXTS, TASK_DISPLAY_STATUS_VARIANTS);
export const aggregateStatusBadge = badgeOf(AGGREGATE_TASK_STATUS_TEXTS, AGGREGATE_TASK_STATUS_VARIANTS);
export const taskStatusBadge = badgeOf(TASK_STATUS_TEXTS, TASK_STATUS_VARIANTS);
export const customerStatusBadge = badgeOf(CUSTOMER_STATUS_TEXTS, CUSTOMER_STATUS_VARIANTS);
export const packageStatusBadge = badgeOf(PACKAGE_STATUS_TEXTS, PACKAGE_STATUS_VARIANTS);
export const machineStatusBadge = badgeOf(MACHINE_STATUS_TEXTS, MACHINE_STATUS_VARIANTS);
export const userStatusBadge = badgeOf(USER_STATUS_TEXTS, USER_STATUS_VARIANTS);
/** Ours (issue 29): the badge of a busy run that has reported no progress for the stall limit (runs.ts). */
export const STALLED_RUN_BADGE: StatusBadge = { text: 'Stalled', variant: 'danger' };

/** A run's status badge; a busy run that is stalled shows 'Stalled' instead of its status. */
export const runStatusBadge = (s: RunStatus, stalled = false): StatusBadge =>
  stalled && isBusyRunStatus(s) ? STALLED_RUN_BADGE : { text: RUN_STATUS_TEXTS[s], variant: RUN_STATUS_VARIANTS[s] };

// --- Dashboard pies (000 §2) -------------------------------------------------------------------------

/** Bootstrap 5's default colours, for canvases (Chart.js) that cannot use CSS classes. */
export const BADGE_VARIANT_COLOURS: Record<BadgeVariant, string> = {
  success: '#198754',
  danger: '#dc3545',
  warning: '#ffc107',
  info: '#0dcaf0',
  secondary: '#6c757d',
  primary: '#0d6efd',
  dark: '#212529',
};

/**
 * One slice of a dashboard pie. `statuses` is what clicking the slice filters the table on (000 §2).
 * `colour` is the slice's fill: its variant's colour unless two slices of one pie share a variant, in
 * which case the second takes a neighbouring Bootstrap palette colour so every slice stays distinct.
 */
export interface PieSlice<S extends string> {
  key: string;
  label: string;
  variant: BadgeVariant;
  colour: string;
  statuses: readonly S[];
}

export interface PieDefinition<S extends string> {
  title: string;
  slices: readonly PieSlice<S>[];
}

const slice = <S extends string>(
  key: string,
  label: string,
  variant: BadgeVariant,
  statuses: readonly S[],
  colour: string = BADGE_VARIANT_COLOURS[variant],
): PieSlice<S> => ({ key, label, variant, colour, statuses });

/** Bootstrap palette colours used where a pie needs a second shade of a variant. */
const ORANGE = '#fd7e14';
const PINK = '#d63384';
const PURPLE = '#6f42c1';

/** A slice of one status, labelled with the status's text: `texts` is the status's table of texts. */
const ownSlice =
  <S extends string>(texts: Record<S, string>) =>
  (status: S, variant: BadgeVariant, colour?: string): PieSlice<S> =>
    slice(status, texts[status], variant, [status], colour);
const aggregateSlice = ownSlice(AGGREGATE_TASK_STATUS_TEXTS);
const machineSlice = ownSlice(MACHINE_STATUS_TEXTS);
const taskSlice = ownSlice(TASK_DISPLAY_STATUS_TEXTS);

const aggregatePie = (title: string): PieDefinition<AggregateTaskStatus> => ({
  title,
  slices: [
    aggregateSlice('SUCCESSFUL_TASKS', 'success'),
    aggregateSlice('FAILED_TASKS', 'danger'),
    aggregateSlice('MISSED_TASKS', 'warning'),
    aggregateSlice('FAILED_AND_MISSED_TASKS', 'danger', PURPLE),
    aggregateSlice('NO_COMPLETED_TASKS', 'info'),
    aggregateSlice('NO_RUNNABLE_TASKS', 'secondary'),
    aggregateSlice('UNDEFINED', 'dark'),
  ],
});

const CUSTOMER_STATUS_PIE: PieDefinition<CustomerStatus> = {
  title: 'Customer status',
  slices: [
    slice('ACTIVE', CUSTOMER_STATUS_GROUP_TEXTS.ACTIVE, 'success', ['ACTIVE']),
    slice('SUSPENDED_OR_BLOCKED', CUSTOMER_STATUS_GROUP_TEXTS.SUSPENDED_OR_BLOCKED, 'danger', ['SUSPENDED', 'BLOCKED']),
    slice('APPROVED', CUSTOMER_STATUS_GROUP_TEXTS.APPROVED, 'primary', ['APPROVED']),
    slice('NEW_SIGNUP', CUSTOMER_STATUS_GROUP_TEXTS.NEW_SIGNUP, 'info', ['SIGNUP_REQUESTED']),
  ],
};

const MACHINE_STATUS_PIE: PieDefinition<MachineStatus> = {
  title: 'Machine status',
  slices: [
    machineSlice('ACTIVE', 'success'),
    machineSlice('OVER_PER_MACHINE_QUOTA', 'warning'),
    machineSlice('SUSPENDED', 'danger'),
    machineSlice('PACKAGE_SUSPENDED', 'danger', PINK),
    machineSlice('PACKAGE_OVER_QUOTA', 'warning', ORANGE),
    machineSlice('BLOCKED', 'dark'),
  ],
};

const TASK_STATUS_PIE: PieDefinition<TaskDisplayStatus> = {
  title: 'Task status',
  slices: [
    taskSlice('LAST_SUCCEEDED', 'success'),
    taskSlice('LAST_FAILED', 'danger'),
    taskSlice('MISSED', 'warning'),
    taskSlice('NOT_COMPLETED_YET', 'info'),
    taskSlice('AWAITING_SEED', 'primary'),
    taskSlice('BEING_DELETED', 'dark'),
    taskSlice('DELETION_FAILED', 'danger', PINK),
    taskSlice('NOT_RUNNABLE', 'secondary'),
  ],
};

/**
 * The five pies of the dashboard (000 §2): customer task status and machine task status slice the
 * aggregate statuses, customer status slices the four groups of 000 §4 over displayed customer
 * statuses, machine status slices machine statuses, task status slices task display statuses.
 */
export const DASHBOARD_PIES: {
  customerTaskStatus: PieDefinition<AggregateTaskStatus>;
  customerStatus: PieDefinition<CustomerStatus>;
  machineTaskStatus: PieDefinition<AggregateTaskStatus>;
  machineStatus: PieDefinition<MachineStatus>;
  taskStatus: PieDefinition<TaskDisplayStatus>;
} = {
  customerTaskStatus: aggregatePie('Customer task status'),
  customerStatus: CUSTOMER_STATUS_PIE,
  machineTaskStatus: aggregatePie('Machine task status'),
  machineStatus: MACHINE_STATUS_PIE,
  taskStatus: TASK_STATUS_PIE,
};

/** The slice a status falls in, or undefined when the pie has none for it. */
export function pieSliceOf<S extends string>(pie: PieDefinition<S>, status: S): PieSlice<S> | undefined {
  return pie.slices.find((s) => s.statuses.includes(status));
}

/** Counts per slice, in slice order, from one status per row (the dashboard's pie data). */
export function pieCounts<S extends string>(
  pie: PieDefinition<S>,
  statuses: Iterable<S>,
): { slice: PieSlice<S>; count: number }[] {
  const counts = new Map<string, number>();
  for (const status of statuses) {
    const found = pieSliceOf(pie, status);
    if (found) counts.set(found.key, (counts.get(found.key) ?? 0) + 1);
  }
  return pie.slices.map((s) => ({ slice: s, count: counts.get(s.key) ?? 0 }));
}
