import { type Role, USERS_PATH, userPath } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult } from '../../app/api';
import type { UserRow } from './types';

export const userKeys = {
  all: ['users'] as const,
  /** The customer's own users table (GET /admin/users). */
  list: () => [...userKeys.all, 'list'] as const,
  roles: () => [...userKeys.all, 'roles'] as const,
  /** One user's page: its summary, packages and machines, by the page's path. */
  page: (base: string) => [...userKeys.all, 'page', base] as const,
  linkable: (userId: number) => [...userKeys.all, 'linkable', userId] as const,
};

/** GET /admin/account/users/roles: the roles the caller may give a new user, least privileged first. */
export const USER_ROLES_PATH = `${USERS_PATH}/roles`;

/** GET /admin/account/users/{id}/linkablebackuppackages: the packages the user is not linked to yet. */
export const linkablePackagesPath = (userId: number) => `${userPath(userId)}/linkablebackuppackages`;

export interface RoleOption {
  role: Role;
  roleName: string;
}

export interface LinkablePackage {
  id: number;
  name: string;
}

export function useUserRoles(enabled: boolean) {
  return useQuery({
    queryKey: userKeys.roles(),
    queryFn: () => getResult<{ elements: RoleOption[] }>(USER_ROLES_PATH),
    enabled,
  });
}

export function useLinkablePackages(userId: number, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.linkable(userId),
    queryFn: () => getResult<{ elements: LinkablePackage[] }>(linkablePackagesPath(userId)),
    enabled,
    // The list changes with every link and unlink; never show a stale one in the dialog.
    staleTime: 0,
  });
}

/** One user's summary (GET {user page path}: the page's address is also its call). */
export function useUser(base: string) {
  return useQuery({ queryKey: [...userKeys.page(base), 'summary'], queryFn: () => getResult<UserRow>(base) });
}
