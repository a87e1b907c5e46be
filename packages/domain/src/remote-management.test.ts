import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES, TASK_STATUSES } from './enums.js';
import { MESSAGES } from './messages.js';
import {
  addTaskBlockedReason,
  type MachineControlFacts,
  machineCommandBlockedReason,
  maySwitchRemoteManagement,
  remoteManagementSchema,
  remoteManagementSwitchBlockedReason,
  taskControlReasons,
} from './remote-management.js';
import { runStatusBadge, STALLED_RUN_BADGE } from './statuses.js';
import { makeActor, makeMachine } from './testing/actors.js';
import { canDeleteTask, canEditTask, canRunTaskNow, canTogglePause } from './transitions.js';

const machine = (overrides: Partial<MachineControlFacts> = {}): MachineControlFacts => ({
  ...makeMachine(),
  remoteManagementEnabled: true,
  online: true,
  beingDeleted: false,
  ...overrides,
});
const R = MESSAGES.remoteManagement;
const L = MESSAGES.liveChannel;

describe('who switches remote management (002 §4.2, §6; issue 29)', () => {
  it("lets the customer's own users who may change things switch it: admins, and the user the machine is assigned to", () => {
    expect(maySwitchRemoteManagement(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', userId: 5 }), machine())).toBe(
      true,
    );
    expect(maySwitchRemoteManagement(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', userId: 6 }), machine())).toBe(true);
    expect(maySwitchRemoteManagement(makeActor(), machine())).toBe(true);
  });

  it('refuses the provider, a reseller admin, another tenant and a colleague’s user with the reason shown', () => {
    const provider = makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(remoteManagementSwitchBlockedReason(provider, machine({ allowProviderMachineControl: true }))).toBe(
      R.customerOnly,
    );
    const reseller = makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 20, resellerEnabled: true });
    expect(remoteManagementSwitchBlockedReason(reseller, machine())).toBe(R.customerOnly);
    expect(remoteManagementSwitchBlockedReason(makeActor({ customerId: 11 }), machine())).toBe(R.customerOnly);
    expect(remoteManagementSwitchBlockedReason(makeActor({ userId: 2 }), machine())).toBe(R.customerOnly);
  });

  it('lets a read-only user look only', () => {
    expect(remoteManagementSwitchBlockedReason(makeActor({ readOnly: true }), machine())).toBe(L.readOnlyUser);
  });

  it('is never switchable by the provider, whatever the customer allows (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (allow, on, readOnly) => {
        const provider = makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, readOnly });
        return !maySwitchRemoteManagement(
          provider,
          machine({ allowProviderMachineControl: allow, remoteManagementEnabled: on }),
        );
      }),
    );
  });

  it('takes exactly a boolean', () => {
    expect(remoteManagementSchema.safeParse({ remoteManagementEnabled: false }).success).toBe(true);
    expect(remoteManagementSchema.safeParse({ remoteManagementEnabled: 'false' }).success).toBe(false);
    expect(remoteManagementSchema.safeParse({ remoteManagementEnabled: true, extra: 1 }).success).toBe(false);
  });
});

describe('why a task control is unavailable (issue 29)', () => {
  it('says why adding a task is not possible, in the order the server checks', () => {
    expect(addTaskBlockedReason(makeActor(), machine())).toBeNull();
    expect(addTaskBlockedReason(makeActor({ readOnly: true }), machine({ online: false }))).toBe(L.readOnlyUser);
    const provider = makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(addTaskBlockedReason(provider, machine())).toBe(R.providerControlOff);
    expect(addTaskBlockedReason(provider, machine({ allowProviderMachineControl: true }))).toBeNull();
    expect(addTaskBlockedReason(makeActor(), machine({ remoteManagementEnabled: false, online: false }))).toBe(
      L.remoteManagementDisabled,
    );
    expect(addTaskBlockedReason(makeActor(), machine({ online: false }))).toBe(L.machineOffline);
    expect(addTaskBlockedReason(makeActor(), machine({ beingDeleted: true }))).toBe(
      MESSAGES.backupMachine.beingDeleted,
    );
  });

  it('gives each task control a reason exactly when the rules of transitions.ts refuse it (property)', () => {
    const owners = { machineStatus: 'ACTIVE', packageStatus: 'ACTIVE', customerStatus: 'ACTIVE' } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...TASK_STATUSES),
        fc.boolean(),
        fc.constantFrom('ACTIVE', 'SUSPENDED', 'OVER_PER_MACHINE_QUOTA'),
        (status, remote, machineStatus) => {
          const task = { ...owners, status, remoteManagementEnabled: remote, machineStatus } as const;
          const reasons = taskControlReasons(
            machineCommandBlockedReason(makeActor(), machine({ remoteManagementEnabled: remote })),
            task,
          );
          return (
            (reasons.runNow === null) === canRunTaskNow(task) &&
            (reasons.togglePause === null) === canTogglePause(task) &&
            (reasons.edit === null) === canEditTask(task) &&
            (reasons.delete === null) === canDeleteTask(task)
          );
        },
      ),
    );
  });

  it('names the task’s own reason when the machine has none', () => {
    const task = (status: (typeof TASK_STATUSES)[number]) => ({
      status,
      remoteManagementEnabled: true,
      machineStatus: 'ACTIVE' as const,
      packageStatus: 'ACTIVE' as const,
      customerStatus: 'ACTIVE' as const,
    });
    expect(taskControlReasons(null, task('AWAITING_SEED'))).toMatchObject({
      edit: R.taskAwaitingSeed,
      togglePause: R.taskAwaitingSeed,
    });
    expect(taskControlReasons(null, task('BEING_DELETED')).delete).toBe(R.taskBeingDeleted);
    expect(taskControlReasons(L.machineOffline, task('ACTIVE'))).toEqual({
      runNow: L.machineOffline,
      togglePause: L.machineOffline,
      edit: L.machineOffline,
      delete: L.machineOffline,
    });
  });

  it('keeps every role’s reasons apart from its own rights: a read-only caller is told so first (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROLES), fc.boolean(), fc.boolean(), (role, remote, online) => {
        const reason = machineCommandBlockedReason(
          makeActor({ role, readOnly: true }),
          machine({ remoteManagementEnabled: remote, online }),
        );
        return reason === L.readOnlyUser;
      }),
    );
  });
});

describe('stalled runs (issue 29)', () => {
  it("shows a busy stalled run as 'Stalled', and a finished one by its status", () => {
    expect(runStatusBadge('IN_PROGRESS', true)).toEqual(STALLED_RUN_BADGE);
    expect(runStatusBadge('INITIATED', true).text).toBe('Stalled');
    expect(runStatusBadge('FAILED', true).text).toBe('Failed');
    expect(runStatusBadge('IN_PROGRESS').text).toBe('In progress');
  });
});
