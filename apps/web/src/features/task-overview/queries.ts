/** Query keys of the provider's task dashboards: every list and the counts sit under `all`. */
export const taskOverviewKeys = {
  all: ['taskOverview'] as const,
  list: (name: 'running' | 'nextPeriod' | 'beingDeleted') => [...taskOverviewKeys.all, name] as const,
  counts: () => [...taskOverviewKeys.all, 'counts'] as const,
};
