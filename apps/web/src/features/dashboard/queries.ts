import { ROUTES, type RouteEntry } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, type RouteCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Query keys of the dashboard: lists and pie counts per path, the getting-started flags. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  lists: () => [...dashboardKeys.all, 'list'] as const,
  counts: (path: string) => [...dashboardKeys.all, 'counts', path] as const,
  gettingStarted: () => [...dashboardKeys.all, 'gettingStarted'] as const,
};

/** The pie counts of one tab's scope (without the table's status filter, so every slice stays). */
export function useDashboardCounts<R extends RouteEntry>(counts: RouteCall<R>) {
  return useQuery({ queryKey: dashboardKeys.counts(counts.path), queryFn: () => getResult(counts) });
}

/** The getting-started flags of the caller's customer; only customer accounts ask. */
export function useGettingStarted(enabled: boolean) {
  return useRouteQuery(dashboardKeys.gettingStarted(), ROUTES.dashboard.gettingStarted, {}, { enabled });
}
