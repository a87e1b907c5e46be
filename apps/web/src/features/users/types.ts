import type { UserRow } from '@portal/domain';

export type { UserMachineRow, UserPackageRow, UserRow } from '@portal/domain';

export const userFullName = (user: Pick<UserRow, 'firstName' | 'surname'>) => `${user.firstName} ${user.surname}`;
