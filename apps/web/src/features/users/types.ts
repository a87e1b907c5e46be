export type { UserMachineRow, UserPackageRow, UserRow } from '@portal/domain';
