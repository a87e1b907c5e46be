import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGGREGATE_TASK_STATUSES,
  type AggregateTaskStatus,
  BADGE_VARIANTS,
  CUSTOMER_STATUSES,
  type CustomerStatus,
  MACHINE_STATUSES,
  type MachineStatus,
  PACKAGE_STATUSES,
  type PackageStatus,
  RUN_STATUSES,
  type RunStatus,
  TASK_BADGE_TEXTS,
  TASK_DISPLAY_STATUSES,
  TASK_STATUSES,
  type TaskBadge,
  type TaskDisplayStatus,
  type TaskStatus,
} from './enums.js';
import {
  AGGREGATE_TASK_STATUS_VARIANTS,
  type AggregateCounts,
  addCounts,
  aggregateCategory,
  aggregateFromCounts,
  aggregateStatus,
  aggregateStatusBadge,
  BADGE_VARIANT_COLOURS,
  CHANGE_REQUESTED_BADGE,
  CUSTOMER_STATUS_VARIANTS,
  countsDelta,
  countsOfTask,
  countsOfTasks,
  countsWhenStopped,
  customerDisplayStatus,
  customerStatusBadge,
  customerStatusGroup,
  customerStopsTasks,
  customerTypeBadges,
  customerTypes,
  DASHBOARD_PIES,
  EMPTY_AGGREGATE_COUNTS,
  isBusyRunStatus,
  isNewSignup,
  isTaskRunnable,
  MACHINE_STATUS_VARIANTS,
  machineStatusBadge,
  machineStopsTasks,
  NEW_SIGNUP_BADGE,
  PACKAGE_STATUS_VARIANTS,
  type PieDefinition,
  packageChangeBadge,
  packageStatusBadge,
  packageStopsTasks,
  pieCounts,
  pieSliceOf,
  RUN_STATUS_VARIANTS,
  runStatusBadge,
  subtractCounts,
  suspensionBadge,
  TASK_BADGE_VARIANTS,
  TASK_DISPLAY_STATUS_VARIANTS,
  TASK_STATUS_VARIANTS,
  type TaskStatusInput,
  taskBadge,
  taskBadges,
  taskDisplayStatus,
  taskDisplayStatusBadge,
  taskStatusBadge,
  tasksInProgress,
  tasksInProgressFromCounts,
} from './statuses.js';

const task = (overrides: Partial<TaskStatusInput> = {}): TaskStatusInput => ({
  status: 'ACTIVE',
  lastExecutionMissed: false,
  statusOfLastRun: null,
  statusOfRunBeforeLast: null,
  machineStatus: 'ACTIVE',
  packageStatus: 'ACTIVE',
  customerStatus: 'ACTIVE',
  ...overrides,
});

const runOrNone = fc.constantFrom<RunStatus | null>(null, ...RUN_STATUSES);
const anyTask: fc.Arbitrary<TaskStatusInput> = fc.record({
  status: fc.constantFrom(...TASK_STATUSES),
  lastExecutionMissed: fc.boolean(),
  statusOfLastRun: runOrNone,
  statusOfRunBeforeLast: runOrNone,
  machineStatus: fc.constantFrom(...MACHINE_STATUSES),
  packageStatus: fc.constantFrom(...PACKAGE_STATUSES),
  customerStatus: fc.constantFrom(...CUSTOMER_STATUSES),
});
/** Mostly runnable tasks, so that the run-based statuses show up often in property runs. */
const likelyRunnableTask: fc.Arbitrary<TaskStatusInput> = fc.oneof(
  {
    weight: 3,
    arbitrary: anyTask.map((t) => ({
      ...t,
      machineStatus: 'ACTIVE' as const,
      packageStatus: 'ACTIVE' as const,
      customerStatus: 'ACTIVE' as const,
    })),
  },
  { weight: 1, arbitrary: anyTask },
);

describe('000 §4: task display status, step 1 (NOT_RUNNABLE)', () => {
  it('000 §4: a paused task is NOT_RUNNABLE, even when missed or with runs', () => {
    expect(taskDisplayStatus(task({ status: 'PAUSED' }))).toBe('NOT_RUNNABLE');
    expect(taskDisplayStatus(task({ status: 'PAUSED', lastExecutionMissed: true, statusOfLastRun: 'FAILED' }))).toBe(
      'NOT_RUNNABLE',
    );
  });

  it('000 §4: a machine over its per-machine quota, suspended, blocked, or stopped by its package stops its tasks', () => {
    const stopping: MachineStatus[] = [
      'OVER_PER_MACHINE_QUOTA',
      'SUSPENDED',
      'BLOCKED',
      'PACKAGE_SUSPENDED',
      'PACKAGE_OVER_QUOTA',
    ];
    for (const machineStatus of MACHINE_STATUSES) {
      expect(machineStopsTasks(machineStatus)).toBe(stopping.includes(machineStatus));
      expect(taskDisplayStatus(task({ machineStatus, statusOfLastRun: 'FINISHED_SUCCESS' }))).toBe(
        stopping.includes(machineStatus) ? 'NOT_RUNNABLE' : 'LAST_SUCCEEDED',
      );
    }
  });

  it('000 §4: a package over quota, suspended or blocked stops its tasks; requested, approved and active do not', () => {
    const stopping: PackageStatus[] = ['OVER_QUOTA', 'SUSPENDED', 'BLOCKED'];
    for (const packageStatus of PACKAGE_STATUSES) {
      expect(packageStopsTasks(packageStatus)).toBe(stopping.includes(packageStatus));
      expect(taskDisplayStatus(task({ packageStatus, statusOfLastRun: 'FAILED' }))).toBe(
        stopping.includes(packageStatus) ? 'NOT_RUNNABLE' : 'LAST_FAILED',
      );
    }
  });

  it('000 §4: a suspended or blocked customer stops its tasks; other customer statuses do not', () => {
    const stopping: CustomerStatus[] = ['SUSPENDED', 'BLOCKED'];
    for (const customerStatus of CUSTOMER_STATUSES) {
      expect(customerStopsTasks(customerStatus)).toBe(stopping.includes(customerStatus));
      expect(taskDisplayStatus(task({ customerStatus }))).toBe(
        stopping.includes(customerStatus) ? 'NOT_RUNNABLE' : 'NOT_COMPLETED_YET',
      );
    }
  });

  it('000 §4: NOT_RUNNABLE is checked before MISSED and before the raw states', () => {
    for (const status of ['AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED'] as const) {
      expect(taskDisplayStatus(task({ status, customerStatus: 'SUSPENDED', lastExecutionMissed: true }))).toBe(
        'NOT_RUNNABLE',
      );
    }
  });

  it('000 §4: isTaskRunnable is exactly "display status is not NOT_RUNNABLE"', () => {
    fc.assert(
      fc.property(anyTask, (t) => {
        expect(isTaskRunnable(t)).toBe(taskDisplayStatus(t) !== 'NOT_RUNNABLE');
      }),
    );
  });
});

describe('000 §4: task display status, steps 2 to 4', () => {
  it('000 §4: MISSED when the last execution was missed, before the raw states and the runs', () => {
    expect(taskDisplayStatus(task({ lastExecutionMissed: true }))).toBe('MISSED');
    expect(taskDisplayStatus(task({ lastExecutionMissed: true, statusOfLastRun: 'FINISHED_SUCCESS' }))).toBe('MISSED');
    for (const status of ['AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED'] as const) {
      expect(taskDisplayStatus(task({ status, lastExecutionMissed: true }))).toBe('MISSED');
    }
  });

  it('000 §4: AWAITING_SEED, BEING_DELETED and DELETION_FAILED by raw status, before the runs', () => {
    for (const status of ['AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED'] as const) {
      for (const statusOfLastRun of [null, ...RUN_STATUSES]) {
        expect(taskDisplayStatus(task({ status, statusOfLastRun, statusOfRunBeforeLast: 'FAILED' }))).toBe(status);
      }
    }
  });

  it('000 §4: from the last run, or the run before last while the last is initiated or in progress (every pair)', () => {
    const fromOne = (run: RunStatus | null): TaskDisplayStatus =>
      run === 'FAILED'
        ? 'LAST_FAILED'
        : run === 'FINISHED_SUCCESS' || run === 'FINISHED_WARNINGS'
          ? 'LAST_SUCCEEDED'
          : 'NOT_COMPLETED_YET';
    const expected: Record<string, TaskDisplayStatus> = {
      'FAILED/*': 'LAST_FAILED',
      'FINISHED_SUCCESS/*': 'LAST_SUCCEEDED',
      'FINISHED_WARNINGS/*': 'LAST_SUCCEEDED',
    };
    for (const last of [null, ...RUN_STATUSES]) {
      for (const before of [null, ...RUN_STATUSES]) {
        const got = taskDisplayStatus(task({ statusOfLastRun: last, statusOfRunBeforeLast: before }));
        if (last === 'INITIATED' || last === 'IN_PROGRESS') expect(got).toBe(fromOne(before));
        else if (last === null) expect(got).toBe('NOT_COMPLETED_YET');
        else expect(got).toBe(expected[`${last}/*`]);
      }
    }
  });

  it('000 §4: a run in progress after a failure shows LAST_FAILED, after success LAST_SUCCEEDED, as the first run NOT_COMPLETED_YET', () => {
    expect(taskDisplayStatus(task({ statusOfLastRun: 'IN_PROGRESS', statusOfRunBeforeLast: 'FAILED' }))).toBe(
      'LAST_FAILED',
    );
    expect(taskDisplayStatus(task({ statusOfLastRun: 'INITIATED', statusOfRunBeforeLast: 'FINISHED_WARNINGS' }))).toBe(
      'LAST_SUCCEEDED',
    );
    expect(taskDisplayStatus(task({ statusOfLastRun: 'IN_PROGRESS', statusOfRunBeforeLast: null }))).toBe(
      'NOT_COMPLETED_YET',
    );
    // A run before last that was itself left in progress does not count as completed.
    expect(taskDisplayStatus(task({ statusOfLastRun: 'IN_PROGRESS', statusOfRunBeforeLast: 'INITIATED' }))).toBe(
      'NOT_COMPLETED_YET',
    );
  });

  it('000 §4: the display status follows an independently written model of the rule for every input', () => {
    const model = (t: TaskStatusInput): TaskDisplayStatus => {
      const stopped =
        t.status === 'PAUSED' ||
        ['OVER_PER_MACHINE_QUOTA', 'SUSPENDED', 'BLOCKED', 'PACKAGE_SUSPENDED', 'PACKAGE_OVER_QUOTA'].includes(
          t.machineStatus,
        ) ||
        ['OVER_QUOTA', 'SUSPENDED', 'BLOCKED'].includes(t.packageStatus) ||
        ['SUSPENDED', 'BLOCKED'].includes(t.customerStatus);
      if (stopped) return 'NOT_RUNNABLE';
      if (t.lastExecutionMissed) return 'MISSED';
      if (t.status !== 'ACTIVE') return t.status as TaskDisplayStatus;
      const deciding =
        t.statusOfLastRun === 'INITIATED' || t.statusOfLastRun === 'IN_PROGRESS'
          ? t.statusOfRunBeforeLast
          : t.statusOfLastRun;
      if (deciding === 'FAILED') return 'LAST_FAILED';
      if (deciding === 'FINISHED_SUCCESS' || deciding === 'FINISHED_WARNINGS') return 'LAST_SUCCEEDED';
      return 'NOT_COMPLETED_YET';
    };
    fc.assert(
      fc.property(anyTask, (t) => {
        expect(taskDisplayStatus(t)).toBe(model(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('000 §4: busy runs are exactly INITIATED and IN_PROGRESS', () => {
    expect(RUN_STATUSES.filter(isBusyRunStatus)).toEqual(['INITIATED', 'IN_PROGRESS']);
    expect(isBusyRunStatus(null)).toBe(false);
    expect(isBusyRunStatus(undefined)).toBe(false);
  });
});

describe('000 §4: extra task badges', () => {
  it('000 §4: badge texts are exactly the spec’s', () => {
    expect(Object.values(TASK_BADGE_TEXTS)).toEqual([
      'PAUSED',
      'RUN IN PROGRESS',
      'CUSTOMER SUSPENDED',
      'PACKAGE SUSPENDED',
      'PACKAGE OVER QUOTA',
      'MACHINE SUSPENDED',
      'MACHINE OVER QUOTA',
    ]);
    expect(taskBadge('RUN_IN_PROGRESS')).toEqual({ text: 'RUN IN PROGRESS', variant: 'info' });
  });

  it('000 §4: PAUSED for a paused task, RUN IN PROGRESS while the last run is initiated or in progress', () => {
    expect(taskBadges(task())).toEqual([]);
    expect(taskBadges(task({ status: 'PAUSED' }))).toEqual(['PAUSED']);
    expect(taskBadges(task({ statusOfLastRun: 'INITIATED' }))).toEqual(['RUN_IN_PROGRESS']);
    expect(taskBadges(task({ statusOfLastRun: 'IN_PROGRESS' }))).toEqual(['RUN_IN_PROGRESS']);
    for (const run of ['FAILED', 'FINISHED_SUCCESS', 'FINISHED_WARNINGS'] as const) {
      expect(taskBadges(task({ statusOfLastRun: run }))).toEqual([]);
    }
    // 002 §4.2: pausing does not stop a run in progress, so both show.
    expect(taskBadges(task({ status: 'PAUSED', statusOfLastRun: 'IN_PROGRESS', packageStatus: 'OVER_QUOTA' }))).toEqual(
      ['PAUSED', 'RUN_IN_PROGRESS', 'PACKAGE_OVER_QUOTA'],
    );
  });

  it('000 §4: only the first applicable suspension or quota badge shows: customer, package suspended, package over quota, machine suspended, machine over quota', () => {
    const applicable = (m: MachineStatus, p: PackageStatus, c: CustomerStatus): TaskBadge[] =>
      [
        c === 'SUSPENDED' || c === 'BLOCKED' ? 'CUSTOMER_SUSPENDED' : null,
        p === 'SUSPENDED' || p === 'BLOCKED' || m === 'PACKAGE_SUSPENDED' ? 'PACKAGE_SUSPENDED' : null,
        p === 'OVER_QUOTA' || m === 'PACKAGE_OVER_QUOTA' ? 'PACKAGE_OVER_QUOTA' : null,
        m === 'SUSPENDED' || m === 'BLOCKED' ? 'MACHINE_SUSPENDED' : null,
        m === 'OVER_PER_MACHINE_QUOTA' ? 'MACHINE_OVER_QUOTA' : null,
      ].filter((b): b is TaskBadge => b !== null);
    for (const machineStatus of MACHINE_STATUSES) {
      for (const packageStatus of PACKAGE_STATUSES) {
        for (const customerStatus of CUSTOMER_STATUSES) {
          const t = task({ machineStatus, packageStatus, customerStatus });
          const first = applicable(machineStatus, packageStatus, customerStatus)[0] ?? null;
          expect(suspensionBadge(t)).toBe(first);
          expect(taskBadges(t)).toEqual(first ? [first] : []);
        }
      }
    }
  });

  it('000 §4: precedence examples', () => {
    expect(
      suspensionBadge(task({ customerStatus: 'BLOCKED', packageStatus: 'SUSPENDED', machineStatus: 'SUSPENDED' })),
    ).toBe('CUSTOMER_SUSPENDED');
    expect(suspensionBadge(task({ packageStatus: 'OVER_QUOTA', machineStatus: 'SUSPENDED' }))).toBe(
      'PACKAGE_OVER_QUOTA',
    );
    expect(suspensionBadge(task({ packageStatus: 'BLOCKED', machineStatus: 'PACKAGE_OVER_QUOTA' }))).toBe(
      'PACKAGE_SUSPENDED',
    );
    expect(suspensionBadge(task({ machineStatus: 'BLOCKED' }))).toBe('MACHINE_SUSPENDED');
    expect(suspensionBadge(task({ machineStatus: 'OVER_PER_MACHINE_QUOTA' }))).toBe('MACHINE_OVER_QUOTA');
  });

  it('000 §4: a task is NOT_RUNNABLE exactly when it shows PAUSED or a suspension/quota badge', () => {
    fc.assert(
      fc.property(anyTask, (t) => {
        const badges = taskBadges(t);
        const stops = badges.some((b) => b !== 'RUN_IN_PROGRESS');
        expect(taskDisplayStatus(t) === 'NOT_RUNNABLE').toBe(stops);
        expect(badges.filter((b) => b !== 'PAUSED' && b !== 'RUN_IN_PROGRESS').length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('000 §4: aggregate status of a customer or machine', () => {
  const succeeded = task({ statusOfLastRun: 'FINISHED_SUCCESS' });
  const warned = task({ statusOfLastRun: 'FINISHED_WARNINGS' });
  const failed = task({ statusOfLastRun: 'FAILED' });
  const missed = task({ lastExecutionMissed: true });
  const neverRun = task();
  const ignoredOnes = [
    task({ status: 'PAUSED', statusOfLastRun: 'FAILED' }),
    task({ status: 'AWAITING_SEED' }),
    task({ status: 'BEING_DELETED', statusOfLastRun: 'FAILED' }),
    task({ status: 'DELETION_FAILED' }),
    task({ machineStatus: 'SUSPENDED', lastExecutionMissed: true }),
  ];

  it('000 §4: each category maps as the spec says', () => {
    const expected: Record<TaskDisplayStatus, string> = {
      MISSED: 'missed',
      LAST_SUCCEEDED: 'successful',
      LAST_FAILED: 'failed',
      NOT_COMPLETED_YET: 'neverRun',
      AWAITING_SEED: 'ignored',
      BEING_DELETED: 'ignored',
      DELETION_FAILED: 'ignored',
      NOT_RUNNABLE: 'ignored',
    };
    for (const s of TASK_DISPLAY_STATUSES) expect(aggregateCategory(s)).toBe(expected[s]);
  });

  it('000 §4: failed and missed both present → FAILED_AND_MISSED_TASKS', () => {
    expect(aggregateStatus([failed, missed, succeeded, neverRun, ...ignoredOnes])).toBe('FAILED_AND_MISSED_TASKS');
  });

  it('000 §4: else any failed → FAILED_TASKS', () => {
    expect(aggregateStatus([failed, succeeded, neverRun, ...ignoredOnes])).toBe('FAILED_TASKS');
  });

  it('000 §4: else any missed → MISSED_TASKS', () => {
    expect(aggregateStatus([missed, succeeded, neverRun, ...ignoredOnes])).toBe('MISSED_TASKS');
  });

  it('000 §4: else any successful (success or warnings) → SUCCESSFUL_TASKS', () => {
    expect(aggregateStatus([succeeded, neverRun, ...ignoredOnes])).toBe('SUCCESSFUL_TASKS');
    expect(aggregateStatus([warned])).toBe('SUCCESSFUL_TASKS');
  });

  it('000 §4: else any never run → NO_COMPLETED_TASKS', () => {
    expect(aggregateStatus([neverRun, ...ignoredOnes])).toBe('NO_COMPLETED_TASKS');
    expect(aggregateStatus([task({ statusOfLastRun: 'IN_PROGRESS' })])).toBe('NO_COMPLETED_TASKS');
  });

  it('000 §4: only ignored tasks (not runnable, awaiting seed, being deleted, deletion failed) → NO_RUNNABLE_TASKS', () => {
    expect(aggregateStatus(ignoredOnes)).toBe('NO_RUNNABLE_TASKS');
    for (const one of ignoredOnes) expect(aggregateStatus([one])).toBe('NO_RUNNABLE_TASKS');
  });

  it('000 §4: a customer with no task list (null, undefined or empty) yields NO_COMPLETED_TASKS', () => {
    expect(aggregateStatus(null)).toBe('NO_COMPLETED_TASKS');
    expect(aggregateStatus(undefined)).toBe('NO_COMPLETED_TASKS');
    expect(aggregateStatus([])).toBe('NO_COMPLETED_TASKS');
  });

  it('000 §4: the tasks-in-progress flag is set when any task, ignored ones included, has a run initiated or in progress', () => {
    expect(tasksInProgress(null)).toBe(false);
    expect(tasksInProgress([succeeded, failed])).toBe(false);
    expect(tasksInProgress([succeeded, task({ statusOfLastRun: 'INITIATED' })])).toBe(true);
    expect(tasksInProgress([task({ status: 'PAUSED', statusOfLastRun: 'IN_PROGRESS' })])).toBe(true);
    // The run before last does not make a task in progress.
    expect(tasksInProgress([task({ statusOfLastRun: 'FAILED', statusOfRunBeforeLast: 'IN_PROGRESS' })])).toBe(false);
  });
});

describe('000 §4, DESIGN §9: aggregate status from stored counters', () => {
  /** The reference model: the spec's rule written directly over display statuses, without counters. */
  const reference = (tasks: readonly TaskStatusInput[]): { status: AggregateTaskStatus; inProgress: boolean } => {
    const shown = tasks.map(taskDisplayStatus);
    const inProgress = tasks.some((t) => t.statusOfLastRun === 'INITIATED' || t.statusOfLastRun === 'IN_PROGRESS');
    if (tasks.length === 0) return { status: 'NO_COMPLETED_TASKS', inProgress };
    const has = (s: TaskDisplayStatus) => shown.includes(s);
    let status: AggregateTaskStatus;
    if (has('LAST_FAILED') && has('MISSED')) status = 'FAILED_AND_MISSED_TASKS';
    else if (has('LAST_FAILED')) status = 'FAILED_TASKS';
    else if (has('MISSED')) status = 'MISSED_TASKS';
    else if (has('LAST_SUCCEEDED')) status = 'SUCCESSFUL_TASKS';
    else if (has('NOT_COMPLETED_YET')) status = 'NO_COMPLETED_TASKS';
    else status = 'NO_RUNNABLE_TASKS';
    return { status, inProgress };
  };
  const taskList = fc.array(likelyRunnableTask, { maxLength: 12 });

  it('000 §4: aggregateFromCounts(sum of countsOfTask) equals aggregateStatus and the reference model', () => {
    fc.assert(
      fc.property(taskList, (tasks) => {
        const counts = tasks.map(countsOfTask).reduce(addCounts, { ...EMPTY_AGGREGATE_COUNTS });
        const expected = reference(tasks);
        expect(aggregateFromCounts(counts)).toBe(expected.status);
        expect(aggregateStatus(tasks)).toBe(expected.status);
        expect(tasksInProgressFromCounts(counts)).toBe(expected.inProgress);
        expect(tasksInProgress(tasks)).toBe(expected.inProgress);
        expect(countsOfTasks(tasks)).toEqual(counts);
      }),
      { numRuns: 2000 },
    );
  });

  it('DESIGN §9: counters kept by deltas over a history of creates, updates and removals match a recount', () => {
    const step = fc.record({ index: fc.nat(20), next: fc.option(likelyRunnableTask, { nil: null }) });
    fc.assert(
      fc.property(taskList, fc.array(step, { maxLength: 30 }), (initial, steps) => {
        const tasks: (TaskStatusInput | null)[] = [...initial];
        let counts = countsOfTasks(initial);
        for (const { index, next } of steps) {
          const before = tasks[index] ?? null;
          counts = addCounts(counts, countsDelta(before, next));
          tasks[index] = next;
        }
        const live = tasks.filter((t): t is TaskStatusInput => t !== null && t !== undefined);
        expect(counts).toEqual(countsOfTasks(live));
        expect(aggregateFromCounts(counts)).toBe(reference(live).status);
      }),
      { numRuns: 500 },
    );
  });

  it('DESIGN §9: subtracting what was added gives the counts back', () => {
    fc.assert(
      fc.property(taskList, taskList, (a, b) => {
        const ca = countsOfTasks(a);
        expect(subtractCounts(addCounts(ca, countsOfTasks(b)), countsOfTasks(b))).toEqual(ca);
      }),
    );
  });

  it('000 §4: countsWhenStopped gives the counts of the same tasks under a suspended machine, package or customer', () => {
    const stopper = fc.constantFrom<Partial<TaskStatusInput>>(
      { machineStatus: 'SUSPENDED' },
      { machineStatus: 'PACKAGE_OVER_QUOTA' },
      { packageStatus: 'BLOCKED' },
      { customerStatus: 'SUSPENDED' },
    );
    fc.assert(
      fc.property(taskList, stopper, (tasks, stop) => {
        const stopped = tasks.map((t) => ({ ...t, ...stop }));
        expect(countsWhenStopped(countsOfTasks(tasks))).toEqual(countsOfTasks(stopped));
        expect(aggregateFromCounts(countsWhenStopped(countsOfTasks(tasks)))).toBe(reference(stopped).status);
      }),
    );
  });

  it('000 §4: one task counts once in its category and once more in inProgress when its last run is busy', () => {
    expect(countsOfTask(task({ statusOfLastRun: 'IN_PROGRESS', statusOfRunBeforeLast: 'FAILED' }))).toEqual({
      failed: 1,
      missed: 0,
      successful: 0,
      neverRun: 0,
      ignored: 0,
      inProgress: 1,
    });
    expect(countsOfTask(task({ status: 'AWAITING_SEED' }))).toEqual({ ...EMPTY_AGGREGATE_COUNTS, ignored: 1 });
    expect(countsDelta(null, null)).toEqual(EMPTY_AGGREGATE_COUNTS);
  });

  it('000 §4: empty counts yield NO_COMPLETED_TASKS, only ignored counts NO_RUNNABLE_TASKS', () => {
    expect(aggregateFromCounts(EMPTY_AGGREGATE_COUNTS)).toBe('NO_COMPLETED_TASKS');
    expect(aggregateFromCounts({ ...EMPTY_AGGREGATE_COUNTS, ignored: 3, inProgress: 1 })).toBe('NO_RUNNABLE_TASKS');
  });

  it('000 §4: UNDEFINED only for impossible (negative or fractional) counters', () => {
    const broken: AggregateCounts[] = [
      { ...EMPTY_AGGREGATE_COUNTS, failed: -1 },
      { ...EMPTY_AGGREGATE_COUNTS, successful: 1, ignored: -2 },
      { ...EMPTY_AGGREGATE_COUNTS, inProgress: -1 },
      { ...EMPTY_AGGREGATE_COUNTS, missed: 0.5 },
      { ...EMPTY_AGGREGATE_COUNTS, neverRun: Number.NaN },
    ];
    for (const counts of broken) expect(aggregateFromCounts(counts)).toBe('UNDEFINED');
    fc.assert(
      fc.property(fc.array(anyTask, { maxLength: 10 }), (tasks) => {
        expect(aggregateStatus(tasks)).not.toBe('UNDEFINED');
      }),
    );
  });

  it('EMPTY_AGGREGATE_COUNTS cannot be changed by accident', () => {
    expect(Object.isFrozen(EMPTY_AGGREGATE_COUNTS)).toBe(true);
  });
});

describe('000 §4 Customer display, 002 §2.5: customers', () => {
  it('000 §4: a customer with no storage locations is shown as SIGNUP_REQUESTED, whatever its stored status', () => {
    for (const status of CUSTOMER_STATUSES) {
      expect(customerDisplayStatus({ status, storageLocationCount: 0 })).toBe('SIGNUP_REQUESTED');
      expect(customerDisplayStatus({ status, storageLocationCount: 2 })).toBe(status);
    }
  });

  it('002 §2.5: a customer with no storage locations or accounts is labelled NEW SIGNUP', () => {
    expect(isNewSignup({ storageLocationCount: 0 })).toBe(true);
    expect(isNewSignup({ storageLocationCount: 1 })).toBe(false);
    expect(NEW_SIGNUP_BADGE.text).toBe('NEW SIGNUP');
  });

  it('000 §4: the customer status pie groups: active; suspended or blocked; approved; new signups', () => {
    expect(CUSTOMER_STATUSES.map((s) => [s, customerStatusGroup(s)])).toEqual([
      ['ACTIVE', 'ACTIVE'],
      ['APPROVED', 'APPROVED'],
      ['BLOCKED', 'SUSPENDED_OR_BLOCKED'],
      ['SIGNUP_REQUESTED', 'NEW_SIGNUP'],
      ['SUSPENDED', 'SUSPENDED_OR_BLOCKED'],
    ]);
    expect(DASHBOARD_PIES.customerStatus.slices.map((s) => [s.key, s.label, s.statuses])).toEqual([
      ['ACTIVE', 'Active', ['ACTIVE']],
      ['SUSPENDED_OR_BLOCKED', 'Suspended or blocked', ['SUSPENDED', 'BLOCKED']],
      ['APPROVED', 'Approved', ['APPROVED']],
      ['NEW_SIGNUP', 'New signups', ['SIGNUP_REQUESTED']],
    ]);
    for (const s of CUSTOMER_STATUSES) {
      expect(pieSliceOf(DASHBOARD_PIES.customerStatus, s)?.key).toBe(customerStatusGroup(s));
    }
  });

  it('002 §2.5: type badges: the provider’s own or RESELLER CLIENT by parent reseller, plus RESELLER when reseller settings are enabled', () => {
    expect(customerTypes({ parentResellerCustomerId: null, resellerEnabled: false })).toEqual(['PROVIDER_OWN']);
    expect(customerTypes({ parentResellerCustomerId: 7, resellerEnabled: false })).toEqual(['RESELLER_CLIENT']);
    expect(customerTypes({ parentResellerCustomerId: null, resellerEnabled: true })).toEqual([
      'PROVIDER_OWN',
      'RESELLER',
    ]);
    expect(customerTypeBadges({ parentResellerCustomerId: 7, resellerEnabled: true })).toEqual([
      { text: 'RESELLER CLIENT', variant: 'info' },
      { text: 'RESELLER', variant: 'dark' },
    ]);
    expect(customerTypeBadges({ parentResellerCustomerId: null, resellerEnabled: false })).toEqual([
      { text: 'DIRECT', variant: 'primary' },
    ]);
  });

  it('000 §2: CHANGE REQUESTED shows only while an up/downgrade is pending', () => {
    expect(packageChangeBadge({ upOrDownGradeRequested: true })).toBe(CHANGE_REQUESTED_BADGE);
    expect(CHANGE_REQUESTED_BADGE.text).toBe('CHANGE REQUESTED');
    expect(packageChangeBadge({ upOrDownGradeRequested: false })).toBeNull();
  });
});

describe('badge colours and texts (ours where the spec gives none)', () => {
  it('task display statuses', () => {
    expect(TASK_DISPLAY_STATUS_VARIANTS).toEqual({
      MISSED: 'warning',
      LAST_SUCCEEDED: 'success',
      LAST_FAILED: 'danger',
      NOT_COMPLETED_YET: 'info',
      AWAITING_SEED: 'primary',
      BEING_DELETED: 'dark',
      DELETION_FAILED: 'danger',
      NOT_RUNNABLE: 'secondary',
    });
    expect(taskDisplayStatusBadge('LAST_SUCCEEDED')).toEqual({ text: 'Last succeeded', variant: 'success' });
    expect(TASK_DISPLAY_STATUSES.map((s) => taskDisplayStatusBadge(s).text)).toEqual([
      'Missed',
      'Last succeeded',
      'Last failed',
      'Not completed yet',
      'Awaiting seed',
      'Being deleted',
      'Deletion failed',
      'Not runnable',
    ]);
  });

  it('aggregate statuses', () => {
    expect(AGGREGATE_TASK_STATUS_VARIANTS).toEqual({
      NO_COMPLETED_TASKS: 'info',
      NO_RUNNABLE_TASKS: 'secondary',
      SUCCESSFUL_TASKS: 'success',
      MISSED_TASKS: 'warning',
      FAILED_TASKS: 'danger',
      FAILED_AND_MISSED_TASKS: 'danger',
      UNDEFINED: 'dark',
    });
    expect(aggregateStatusBadge('FAILED_AND_MISSED_TASKS')).toEqual({
      text: 'Failed and missed tasks',
      variant: 'danger',
    });
  });

  it('customer, package, machine, raw task and run statuses share one colour language', () => {
    expect(CUSTOMER_STATUS_VARIANTS).toEqual({
      ACTIVE: 'success',
      APPROVED: 'primary',
      BLOCKED: 'dark',
      SIGNUP_REQUESTED: 'info',
      SUSPENDED: 'danger',
    });
    expect(PACKAGE_STATUS_VARIANTS).toEqual({
      REQUESTED: 'info',
      APPROVED: 'primary',
      ACTIVE: 'success',
      OVER_QUOTA: 'warning',
      SUSPENDED: 'danger',
      BLOCKED: 'dark',
    });
    expect(MACHINE_STATUS_VARIANTS).toEqual({
      ACTIVE: 'success',
      OVER_PER_MACHINE_QUOTA: 'warning',
      SUSPENDED: 'danger',
      PACKAGE_SUSPENDED: 'danger',
      PACKAGE_OVER_QUOTA: 'warning',
      BLOCKED: 'dark',
    });
    expect(TASK_STATUS_VARIANTS).toEqual({
      ACTIVE: 'success',
      PAUSED: 'secondary',
      AWAITING_SEED: 'primary',
      BEING_DELETED: 'dark',
      DELETION_FAILED: 'danger',
    });
    expect(RUN_STATUS_VARIANTS).toEqual({
      INITIATED: 'secondary',
      IN_PROGRESS: 'info',
      FAILED: 'danger',
      FINISHED_SUCCESS: 'success',
      FINISHED_WARNINGS: 'warning',
    });
    expect(TASK_BADGE_VARIANTS).toEqual({
      PAUSED: 'secondary',
      RUN_IN_PROGRESS: 'info',
      CUSTOMER_SUSPENDED: 'danger',
      PACKAGE_SUSPENDED: 'danger',
      PACKAGE_OVER_QUOTA: 'warning',
      MACHINE_SUSPENDED: 'danger',
      MACHINE_OVER_QUOTA: 'warning',
    });
    expect(customerStatusBadge('SIGNUP_REQUESTED')).toEqual({ text: 'Signup requested', variant: 'info' });
    expect(packageStatusBadge('OVER_QUOTA')).toEqual({ text: 'Over quota', variant: 'warning' });
    expect(machineStatusBadge('OVER_PER_MACHINE_QUOTA')).toEqual({
      text: 'Over per-machine quota',
      variant: 'warning',
    });
    expect(taskStatusBadge('PAUSED')).toEqual({ text: 'Paused', variant: 'secondary' });
    expect(runStatusBadge('FINISHED_WARNINGS')).toEqual({ text: 'Finished with warnings', variant: 'warning' });
  });

  it('every variant is a Bootstrap colour name with a canvas colour', () => {
    expect(Object.keys(BADGE_VARIANT_COLOURS).sort()).toEqual([...BADGE_VARIANTS].sort());
    for (const colour of Object.values(BADGE_VARIANT_COLOURS)) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('000 §2: dashboard pies', () => {
  const domains: [string, PieDefinition<string>, readonly string[]][] = [
    ['customerTaskStatus', DASHBOARD_PIES.customerTaskStatus, AGGREGATE_TASK_STATUSES],
    ['customerStatus', DASHBOARD_PIES.customerStatus, CUSTOMER_STATUSES],
    ['machineTaskStatus', DASHBOARD_PIES.machineTaskStatus, AGGREGATE_TASK_STATUSES],
    ['machineStatus', DASHBOARD_PIES.machineStatus, MACHINE_STATUSES],
    ['taskStatus', DASHBOARD_PIES.taskStatus, TASK_DISPLAY_STATUSES],
  ];

  it('000 §2: there are five pies with their titles', () => {
    expect(Object.entries(DASHBOARD_PIES).map(([k, p]) => [k, p.title])).toEqual([
      ['customerTaskStatus', 'Customer task status'],
      ['customerStatus', 'Customer status'],
      ['machineTaskStatus', 'Machine task status'],
      ['machineStatus', 'Machine status'],
      ['taskStatus', 'Task status'],
    ]);
  });

  it.each(
    domains,
  )('000 §2: the %s pie puts every status in exactly one slice, with distinct colours and labels', (_, pie, all) => {
    const covered = pie.slices.flatMap((s) => s.statuses);
    expect([...covered].sort()).toEqual([...all].sort());
    expect(new Set(pie.slices.map((s) => s.colour)).size).toBe(pie.slices.length);
    expect(new Set(pie.slices.map((s) => s.label)).size).toBe(pie.slices.length);
    for (const s of pie.slices) expect(BADGE_VARIANTS).toContain(s.variant);
  });

  it('000 §2: task and aggregate pie slices use the badge colours and texts of their status', () => {
    for (const s of DASHBOARD_PIES.taskStatus.slices) {
      const status = s.statuses[0] as TaskDisplayStatus;
      expect(s.variant).toBe(TASK_DISPLAY_STATUS_VARIANTS[status]);
      expect(s.label).toBe(taskDisplayStatusBadge(status).text);
    }
    for (const s of DASHBOARD_PIES.machineTaskStatus.slices) {
      const status = s.statuses[0] as AggregateTaskStatus;
      expect(s.variant).toBe(AGGREGATE_TASK_STATUS_VARIANTS[status]);
      expect(s.label).toBe(aggregateStatusBadge(status).text);
    }
    for (const s of DASHBOARD_PIES.machineStatus.slices) {
      expect(s.variant).toBe(MACHINE_STATUS_VARIANTS[s.statuses[0] as MachineStatus]);
    }
    expect(DASHBOARD_PIES.taskStatus.slices.find((s) => s.key === 'LAST_SUCCEEDED')?.colour).toBe('#198754');
  });

  it('000 §2: pie counts per slice, in slice order, for a filter by slice', () => {
    const counts = pieCounts(DASHBOARD_PIES.customerStatus, [
      'ACTIVE',
      'BLOCKED',
      'SUSPENDED',
      'ACTIVE',
      'SIGNUP_REQUESTED',
    ] as CustomerStatus[]);
    expect(counts.map((c) => [c.slice.key, c.count])).toEqual([
      ['ACTIVE', 2],
      ['SUSPENDED_OR_BLOCKED', 2],
      ['APPROVED', 0],
      ['NEW_SIGNUP', 1],
    ]);
    const partial: PieDefinition<string> = { title: 't', slices: [DASHBOARD_PIES.taskStatus.slices[0] as never] };
    expect(pieCounts(partial, ['LAST_SUCCEEDED', 'MISSED']).map((c) => c.count)).toEqual([1]);
    expect(pieSliceOf(partial, 'MISSED')).toBeUndefined();
  });
});

describe('TaskStatus raw values', () => {
  it('002 §4.2: the raw statuses the rules read', () => {
    expect([...TASK_STATUSES]).toEqual<TaskStatus[]>([
      'ACTIVE',
      'PAUSED',
      'AWAITING_SEED',
      'BEING_DELETED',
      'DELETION_FAILED',
    ]);
  });
});
