/** Test-only: machine records for the machine pages' component tests (not imported by the app). */
import type { MachineDetail, MachineRow } from '@portal/domain';

let nextId = 500;

export function machineRow(overrides: Partial<MachineRow> = {}): MachineRow {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Machine ${id}`,
    status: 'ACTIVE',
    description: 'Office PC',
    operatingSystem: 'Debian 12',
    userId: 9,
    assignedUser: 'Jane Doe',
    assignedUserUrl: '/admin/account/users/9',
    backupPackageId: 21,
    customerId: 7,
    numberOfBackupTasks: 2,
    manageable: true,
    backupMachineUrl: `/backupmachines/${id}`,
    ...overrides,
  };
}

export function machineDetail(overrides: Partial<MachineDetail> = {}): MachineDetail {
  return {
    ...machineRow(overrides),
    customerName: 'Contoso Ltd',
    backupPackageName: 'Standard',
    osFamily: 'LINUX',
    desktopClientVersion: '1.0.0',
    timeZone: 'UTC',
    online: false,
    lastSeenAt: null,
    statusOptions: ['SUSPENDED'],
    deleteable: false,
    administrable: true,
    storageKeyRotatable: false,
    remoteManagementEnabled: true,
    remoteManagementSwitchable: true,
    remoteManagementTooltip: 'Turn remote management off',
    addTaskBlockedReason: null,
    diagnosticsBlockedReason: null,
    ...overrides,
  };
}

export const storageOf = (id: number, usedMb = 512, maxMb = 1024) => ({
  id,
  maxBackupSizePerMachineInBytes: maxMb * 1_048_576,
  usedSpaceInBytes: usedMb * 1_048_576,
  availableSpaceInBytes: (maxMb - usedMb) * 1_048_576,
});
