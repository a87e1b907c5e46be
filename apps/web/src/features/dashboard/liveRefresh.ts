import { DASHBOARD_TIMINGS, DASHBOARD_TOPICS } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { type LiveSide, useLiveTopic } from '../../app/live';
import { dashboardKeys } from './queries';

/**
 * Calls `refresh` at once for the first signal, then at most once per `intervalMs`: a burst of signals
 * inside the interval ends in one trailing call, so the last change is always shown.
 */
export function throttled(refresh: () => void, intervalMs: number, clock: () => number = Date.now) {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = clock();
    refresh();
  };
  return {
    signal() {
      if (timer) return;
      const wait = last + intervalMs - clock();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * The open dashboard follows the live channel (ours, issue #5): when the server says a visible machine
 * changed (a run started or finished, a task or its presence changed) or the channel reconnected, the
 * dashboard's tables, pies and strip are fetched again, without a page reload.
 */
export function useLiveDashboardRefresh(side: LiveSide | null): void {
  const queryClient = useQueryClient();
  const refresher = useMemo(
    () =>
      throttled(
        () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
        DASHBOARD_TIMINGS.liveRefreshMs,
      ),
    [queryClient],
  );
  useEffect(() => () => refresher.cancel(), [refresher]);
  useLiveTopic(side && DASHBOARD_TOPICS[side], refresher.signal);
}
