import type { RouteEntry } from '@portal/domain';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { getResult, type ParamsOf, routeCall } from './api';

/** What a feature's query may set besides its call: when it runs, whether a failure is asked again, how long it is fresh. */
export interface RouteQueryOptions {
  enabled?: boolean;
  retry?: boolean;
  staleTime?: number;
}

/**
 * The query of one route-table call (a feature's `queries.ts`), cached under `queryKey` and answering the entry's
 * type. The path is built when the query runs, so a query that is not enabled may name ids it would not accept.
 */
export function useRouteQuery<R extends RouteEntry>(
  queryKey: QueryKey,
  route: R,
  params: ParamsOf<R>,
  options: RouteQueryOptions = {},
) {
  return useQuery({ queryKey, queryFn: () => getResult(routeCall(route, params)), ...options });
}
