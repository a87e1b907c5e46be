import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_STATUSES,
  type CustomerStatus,
  MACHINE_STATUSES,
  type MachineStatus,
  OS_FAMILIES,
  PACKAGE_STATUSES,
  type PackageStatus,
  TASK_STATUSES,
  type TaskStatus,
} from './enums.js';
import {
  canAddTask,
  canChangeCustomerStatus,
  canChangeMachineStatus,
  canChangePackageStatus,
  canChangeTaskStatus,
  canDeleteCustomer,
  canDeleteMachine,
  canDeletePackage,
  canDeleteTask,
  canEditTask,
  canEditVolumeSnapshots,
  canRequestPackageChange,
  canRunTaskNow,
  canTogglePause,
  customerStatusOptions,
  isPackageEditable,
  isPackageInitializable,
  machineStatusOptions,
  PACKAGE_SUSPEND_WARNING,
  packageStatusChangeWarning,
  packageStatusOptions,
  pauseToggleTarget,
  preselectedStatusOption,
  type RunNowInput,
  taskControls,
} from './transitions.js';

/** Every (from, to) pair the table allows, as 'FROM>TO' strings, for exhaustive comparisons. */
function allowedPairs<S extends string>(all: readonly S[], can: (from: S, to: S) => boolean): string[] {
  return all.flatMap((from) => all.filter((to) => can(from, to)).map((to) => `${from}>${to}`));
}

describe('000 §4: backup package status changes', () => {
  it('000 §4: from ACTIVE, OVER_QUOTA, REQUESTED or APPROVED only SUSPENDED; from SUSPENDED only ACTIVE; from BLOCKED ACTIVE or SUSPENDED', () => {
    const expected: Record<PackageStatus, PackageStatus[]> = {
      REQUESTED: ['SUSPENDED'],
      APPROVED: ['SUSPENDED'],
      ACTIVE: ['SUSPENDED'],
      OVER_QUOTA: ['SUSPENDED'],
      SUSPENDED: ['ACTIVE'],
      BLOCKED: ['ACTIVE', 'SUSPENDED'],
    };
    for (const s of PACKAGE_STATUSES) expect(packageStatusOptions(s)).toEqual(expected[s]);
  });

  it('000 §4: the server accepts exactly the offered changes and nothing else', () => {
    expect(allowedPairs(PACKAGE_STATUSES, canChangePackageStatus)).toEqual([
      'REQUESTED>SUSPENDED',
      'APPROVED>SUSPENDED',
      'ACTIVE>SUSPENDED',
      'OVER_QUOTA>SUSPENDED',
      'SUSPENDED>ACTIVE',
      'BLOCKED>ACTIVE',
      'BLOCKED>SUSPENDED',
    ]);
    // Never to a status that only the system sets.
    for (const from of PACKAGE_STATUSES) {
      for (const to of ['REQUESTED', 'APPROVED', 'OVER_QUOTA', 'BLOCKED'] as const) {
        expect(canChangePackageStatus(from, to)).toBe(false);
      }
    }
  });

  it('000 §4: delete only when SUSPENDED', () => {
    expect(PACKAGE_STATUSES.filter(canDeletePackage)).toEqual(['SUSPENDED']);
  });

  it('000 §4: APPROVED is initializable; ACTIVE or OVER_QUOTA is editable', () => {
    expect(PACKAGE_STATUSES.filter(isPackageInitializable)).toEqual(['APPROVED']);
    expect(PACKAGE_STATUSES.filter(isPackageEditable)).toEqual(['ACTIVE', 'OVER_QUOTA']);
  });

  it('000 §4: upgrade or downgrade only for ACTIVE or OVER_QUOTA with no change already requested', () => {
    for (const status of PACKAGE_STATUSES) {
      expect(canRequestPackageChange({ status, upOrDownGradeRequested: false })).toBe(
        status === 'ACTIVE' || status === 'OVER_QUOTA',
      );
      expect(canRequestPackageChange({ status, upOrDownGradeRequested: true })).toBe(false);
    }
  });

  it('000 §4: suspending warns that all customer access is suspended; other targets do not warn', () => {
    expect(packageStatusChangeWarning('SUSPENDED')).toBe(PACKAGE_SUSPEND_WARNING);
    expect(PACKAGE_SUSPEND_WARNING).toMatch(/suspends all customer access/);
    expect(packageStatusChangeWarning('ACTIVE')).toBeNull();
  });
});

describe('001 §4: backup machine status changes', () => {
  it('001 §4: ACTIVE → SUSPENDED; OVER_PER_MACHINE_QUOTA → SUSPENDED; SUSPENDED → ACTIVE; BLOCKED → ACTIVE or SUSPENDED; package-derived statuses offer none', () => {
    const expected: Record<MachineStatus, MachineStatus[]> = {
      ACTIVE: ['SUSPENDED'],
      OVER_PER_MACHINE_QUOTA: ['SUSPENDED'],
      SUSPENDED: ['ACTIVE'],
      BLOCKED: ['ACTIVE', 'SUSPENDED'],
      PACKAGE_SUSPENDED: [],
      PACKAGE_OVER_QUOTA: [],
    };
    for (const s of MACHINE_STATUSES) expect(machineStatusOptions(s)).toEqual(expected[s]);
    expect(allowedPairs(MACHINE_STATUSES, canChangeMachineStatus)).toEqual([
      'ACTIVE>SUSPENDED',
      'OVER_PER_MACHINE_QUOTA>SUSPENDED',
      'SUSPENDED>ACTIVE',
      'BLOCKED>ACTIVE',
      'BLOCKED>SUSPENDED',
    ]);
  });

  it('001 §4: the first offered option is preselected (ACTIVE for a blocked machine); none when nothing is offered', () => {
    expect(preselectedStatusOption(machineStatusOptions('BLOCKED'))).toBe('ACTIVE');
    expect(preselectedStatusOption(machineStatusOptions('ACTIVE'))).toBe('SUSPENDED');
    expect(preselectedStatusOption(machineStatusOptions('PACKAGE_SUSPENDED'))).toBeNull();
    expect(preselectedStatusOption(packageStatusOptions('BLOCKED'))).toBe('ACTIVE');
    expect(preselectedStatusOption(customerStatusOptions('BLOCKED'))).toBe('ACTIVE');
  });

  it('001 §4, §6: delete is offered only when the machine is SUSPENDED', () => {
    expect(MACHINE_STATUSES.filter(canDeleteMachine)).toEqual(['SUSPENDED']);
  });
});

describe('002 §4.1: customer status changes', () => {
  it('002 §4.1: ACTIVE, SIGNUP_REQUESTED, APPROVED → SUSPENDED only; SUSPENDED → ACTIVE only; BLOCKED → ACTIVE or SUSPENDED', () => {
    const expected: Record<CustomerStatus, CustomerStatus[]> = {
      ACTIVE: ['SUSPENDED'],
      APPROVED: ['SUSPENDED'],
      BLOCKED: ['ACTIVE', 'SUSPENDED'],
      SIGNUP_REQUESTED: ['SUSPENDED'],
      SUSPENDED: ['ACTIVE'],
    };
    for (const s of CUSTOMER_STATUSES) expect(customerStatusOptions(s)).toEqual(expected[s]);
    expect(allowedPairs(CUSTOMER_STATUSES, canChangeCustomerStatus)).toEqual([
      'ACTIVE>SUSPENDED',
      'APPROVED>SUSPENDED',
      'BLOCKED>ACTIVE',
      'BLOCKED>SUSPENDED',
      'SIGNUP_REQUESTED>SUSPENDED',
      'SUSPENDED>ACTIVE',
    ]);
  });

  it('002 §4.1: delete is offered only when the customer is SUSPENDED', () => {
    expect(CUSTOMER_STATUSES.filter(canDeleteCustomer)).toEqual(['SUSPENDED']);
  });
});

describe('002 §4.2, §6: backup task controls', () => {
  const owners = { machineStatus: 'ACTIVE', packageStatus: 'ACTIVE', customerStatus: 'ACTIVE' } as const;
  const on = (status: TaskStatus) => ({ status, remoteManagementEnabled: true, ...owners });
  const off = (status: TaskStatus) => ({ status, remoteManagementEnabled: false, ...owners });

  it('002 §4.2: pause turns ACTIVE into PAUSED, unpause PAUSED into ACTIVE; other statuses have no toggle', () => {
    expect(TASK_STATUSES.map((s) => [s, pauseToggleTarget(s)])).toEqual([
      ['ACTIVE', 'PAUSED'],
      ['PAUSED', 'ACTIVE'],
      ['AWAITING_SEED', null],
      ['BEING_DELETED', null],
      ['DELETION_FAILED', null],
    ]);
  });

  it('002 §4.2: pause/unpause is disabled while awaiting seed, being deleted, or with remote management off', () => {
    expect(TASK_STATUSES.filter((s) => canTogglePause(on(s)))).toEqual(['ACTIVE', 'PAUSED']);
    expect(TASK_STATUSES.filter((s) => canTogglePause(off(s)))).toEqual([]);
  });

  it('002 §7.8: the server accepts only ACTIVE → PAUSED and PAUSED → ACTIVE, with remote management on', () => {
    const allowed = TASK_STATUSES.flatMap((from) =>
      TASK_STATUSES.filter((to) => canChangeTaskStatus(on(from), to)).map((to) => `${from}>${to}`),
    );
    expect(allowed).toEqual(['ACTIVE>PAUSED', 'PAUSED>ACTIVE']);
    expect(canChangeTaskStatus(off('ACTIVE'), 'PAUSED')).toBe(false);
  });

  it('002 §4.2, §6: run now needs remote management and an ACTIVE or PAUSED task (a paused task may run by hand)', () => {
    expect(TASK_STATUSES.filter((s) => canRunTaskNow(on(s)))).toEqual(['ACTIVE', 'PAUSED']);
    expect(TASK_STATUSES.filter((s) => canRunTaskNow(off(s)))).toEqual([]);
  });

  it('000 §4: run now is refused when the machine, package or customer stops the task’s runs', () => {
    const runnable = (o: Partial<Pick<RunNowInput, 'machineStatus' | 'packageStatus' | 'customerStatus'>>) =>
      canRunTaskNow({ ...on('ACTIVE'), ...o });
    expect(MACHINE_STATUSES.filter((machineStatus) => runnable({ machineStatus }))).toEqual(['ACTIVE']);
    expect(PACKAGE_STATUSES.filter((packageStatus) => runnable({ packageStatus }))).toEqual([
      'REQUESTED',
      'APPROVED',
      'ACTIVE',
    ]);
    expect(CUSTOMER_STATUSES.filter((customerStatus) => runnable({ customerStatus }))).toEqual([
      'ACTIVE',
      'APPROVED',
      'SIGNUP_REQUESTED',
    ]);
  });

  it('002 §4.2: a BEING_DELETED task has edit and delete disabled; edit also while awaiting seed; both need remote management', () => {
    expect(TASK_STATUSES.filter((s) => canEditTask(on(s)))).toEqual(['ACTIVE', 'PAUSED', 'DELETION_FAILED']);
    expect(TASK_STATUSES.filter((s) => canDeleteTask(on(s)))).toEqual([
      'ACTIVE',
      'PAUSED',
      'AWAITING_SEED',
      'DELETION_FAILED',
    ]);
    expect(TASK_STATUSES.filter((s) => canEditTask(off(s)) || canDeleteTask(off(s)))).toEqual([]);
  });

  it('002 §6: adding a task needs remote management on the machine', () => {
    expect(canAddTask({ remoteManagementEnabled: true })).toBe(true);
    expect(canAddTask({ remoteManagementEnabled: false })).toBe(false);
  });

  it('002 §4.2: taskControls gathers the same answers', () => {
    expect(taskControls(on('ACTIVE'))).toEqual({
      pauseToggleTarget: 'PAUSED',
      canTogglePause: true,
      canRunNow: true,
      canEdit: true,
      canDelete: true,
    });
    expect(taskControls(on('BEING_DELETED'))).toEqual({
      pauseToggleTarget: null,
      canTogglePause: false,
      canRunNow: false,
      canEdit: false,
      canDelete: false,
    });
    expect(taskControls(off('PAUSED'))).toEqual({
      pauseToggleTarget: 'ACTIVE',
      canTogglePause: false,
      canRunNow: false,
      canEdit: false,
      canDelete: false,
    });
  });

  it('002 §5.5: volume snapshots are editable only for WINDOWS machines', () => {
    expect(OS_FAMILIES.filter(canEditVolumeSnapshots)).toEqual(['WINDOWS']);
  });
});
