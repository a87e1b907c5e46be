import { DASHBOARD_PAGE_SIZE, ROUTES, type RouteEntry } from '@portal/domain';
import { useIsFetching, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getResult, type RouteCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';
import { usePagedQuery, useTableState } from '../../ui';
import type { StatusFilters } from './StatusTablePanel';

/** Query keys of the dashboard: lists and pie counts per path, the getting-started flags. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  lists: () => [...dashboardKeys.all, 'list'] as const,
  counts: (path: string) => [...dashboardKeys.all, 'counts', path] as const,
  gettingStarted: () => [...dashboardKeys.all, 'gettingStarted'] as const,
  attention: () => [...dashboardKeys.all, 'attention'] as const,
};

/** The pie counts of one tab's scope (without the table's status filter, so every slice stays). */
export function useDashboardCounts<R extends RouteEntry>(counts: RouteCall<R>) {
  return useQuery({ queryKey: dashboardKeys.counts(counts.path), queryFn: () => getResult(counts) });
}

/** The getting-started flags of the caller's customer; only customer accounts ask. */
export function useGettingStarted(enabled: boolean) {
  return useRouteQuery(dashboardKeys.gettingStarted(), ROUTES.dashboard.gettingStarted, {}, { enabled });
}

/** What needs attention in the caller's scope (issue 31); under the dashboard's key, so live changes refresh it. */
export const useAttention = () => useRouteQuery(dashboardKeys.attention(), ROUTES.dashboard.attention, {});

const BY_NAME = { key: 'name', direction: 'asc' } as const;

/**
 * What every tab reads: its table's state (by name, DASHBOARD_PAGE_SIZE a page), that page of rows and the
 * pie counts of the whole scope, as StatusTablePanel takes them.
 */
export function useStatusTable<L extends RouteEntry, C extends RouteEntry>(
  listCall: RouteCall<L>,
  countsCall: RouteCall<C>,
) {
  const table = useTableState<StatusFilters>({ size: DASHBOARD_PAGE_SIZE, sort: BY_NAME });
  const list = usePagedQuery(dashboardKeys.lists(), listCall, table.params);
  const counts = useDashboardCounts(countsCall);
  return { table, list, counts: counts.data, countsLoading: counts.isFetching };
}

/**
 * Whether the dashboard shows: once what needs attention has answered (`answered`) and no other first read of
 * the dashboard (the tab's rows and pie counts, the getting-started flags) is still on its way, and from then on.
 * Until then the page is laid out hidden, so it appears whole, once (issue 31, phones): the attention list coming
 * in above the tabs no longer moves them (a layout shift of 0.78 on Lighthouse's phone), and a page is laid out
 * and painted once rather than after each answer. Later reads (paging, live changes) never hide it again.
 */
export function useFirstAnswersIn(answered: boolean): boolean {
  const fetching = useIsFetching({ queryKey: dashboardKeys.all });
  const [shown, setShown] = useState(false);
  const ready = shown || (answered && fetching === 0);
  useEffect(() => {
    if (ready) setShown(true);
  }, [ready]);
  return ready;
}
