import { type AdminAudience, ROUTES } from '@portal/domain';

export const requestKeys = {
  all: ['package-requests'] as const,
  /** The pending requests table of an audience. */
  list: (audience: AdminAudience) => [...requestKeys.all, audience] as const,
  /** The customer's own requests. */
  mine: () => [...requestKeys.all, 'mine'] as const,
};

/** The request calls of an audience: /boltadmin/backuppackagerequests… or /admin/backuppackagerequests…. */
export const requestRoutes = (audience: AdminAudience) =>
  audience === 'provider' ? ROUTES.packageRequests.provider : ROUTES.packageRequests.reseller;
