import { type AdminAudience, type Audience, ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, type RouteCall, routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

export const userKeys = {
  all: ['users'] as const,
  /** The customer's own users table (GET /admin/users). */
  list: () => [...userKeys.all, 'list'] as const,
  roles: () => [...userKeys.all, 'roles'] as const,
  /** One user's page: its summary, packages and machines, by the page's path. */
  page: (base: string) => [...userKeys.all, 'page', base] as const,
  linkable: (userId: number) => [...userKeys.all, 'linkable', userId] as const,
};

type CustomerRoutes = (typeof ROUTES.customers)[AdminAudience];

/** The paged users of a customer: its own admins' list, or the provider's or reseller's look at it. */
export type UsersListCall = RouteCall<typeof ROUTES.users.list | CustomerRoutes['users']>;

/** The calls of one user's page (002 §2.4): the customer's own admins', or the provider's or reseller's. */
export interface UserPageCalls {
  summary: RouteCall<typeof ROUTES.users.detail | CustomerRoutes['user']>;
  packages: RouteCall<typeof ROUTES.users.packages | CustomerRoutes['userPackages']>;
  machines: RouteCall<typeof ROUTES.users.machines | CustomerRoutes['userMachines']>;
}

export function userPageCalls(audience: Audience, customerId: number, userId: number): UserPageCalls {
  if (audience === 'customer') {
    const r = ROUTES.users;
    return {
      summary: routeCall(r.detail, { userId }),
      packages: routeCall(r.packages, { userId }),
      machines: routeCall(r.machines, { userId }),
    };
  }
  const r = ROUTES.customers[audience];
  return {
    summary: routeCall(r.user, { customerId, userId }),
    packages: routeCall(r.userPackages, { customerId, userId }),
    machines: routeCall(r.userMachines, { customerId, userId }),
  };
}

export function useUserRoles(enabled: boolean) {
  return useRouteQuery(userKeys.roles(), ROUTES.users.roles, {}, { enabled });
}

export function useLinkablePackages(userId: number, enabled: boolean) {
  // The list changes with every link and unlink; never show a stale one in the dialog.
  return useRouteQuery(userKeys.linkable(userId), ROUTES.users.linkablePackages, { userId }, { enabled, staleTime: 0 });
}

/** One user's summary, cached under the user page's address. */
export function useUser(base: string, calls: UserPageCalls) {
  return useQuery({ queryKey: [...userKeys.page(base), 'summary'], queryFn: () => getResult(calls.summary) });
}
