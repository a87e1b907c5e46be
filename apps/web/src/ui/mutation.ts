import {
  type QueryClient,
  type QueryKey,
  type UseMutationResult,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { ApiResult } from '../app/api';

/** One query a change makes stale, and how long after the change it is refreshed (000 §9, 001 §9, 002 §9). */
export interface Refresh {
  queryKey: QueryKey;
  /** 0: at once; otherwise the spec's delay for that list (TIMINGS in the domain). */
  afterMs: number;
}

/**
 * Invalidates each query after its delay: the one refresh scheme of every change. The timers are not
 * tied to a component, so a list still refreshes after its page was left (e.g. after a deletion);
 * invalidating a query nobody shows only marks it stale.
 */
export function refreshQueries(client: QueryClient, refreshes: readonly Refresh[]): void {
  for (const { queryKey, afterMs } of refreshes) {
    const invalidate = () => void client.invalidateQueries({ queryKey });
    if (afterMs > 0) setTimeout(invalidate, afterMs);
    else invalidate();
  }
}

/** A change sent to the server: answers its envelope, rejects with CommunicationError when none came. */
export type ApiMutation<V, T> = UseMutationResult<ApiResult<T>, Error, V>;

export interface ApiMutationOptions<V, T> {
  /** The call: `call(ROUTES.…, params, body)`, so its answer type is the route-table entry's. */
  request: (variables: V) => Promise<ApiResult<T>>;
  /** Whether the server made the change; by default an OK answer, also one that carries messages. */
  applied?: (answer: ApiResult<T>) => boolean;
  /** Runs when the change was made, before the refreshes: e.g. puts the answered record into its query. */
  onApplied?: (answer: ApiResult<T>, variables: V, client: QueryClient) => void;
  /** What the change makes stale, each with the spec's delay. */
  refreshes: (variables: V, answer: ApiResult<T>) => readonly Refresh[];
}

const answeredOk = (answer: ApiResult<unknown>) => answer.ok;

/**
 * A feature's mutation (its `mutations.ts`): the call, its answer type and what it refreshes when the
 * server made the change. Toasts and messages are the dialog's, through useDialogSubmit.
 */
export function useApiMutation<V, T>({
  request,
  applied = answeredOk,
  onApplied,
  refreshes,
}: ApiMutationOptions<V, T>): ApiMutation<V, T> {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (answer, variables) => {
      if (!applied(answer)) return;
      onApplied?.(answer, variables, client);
      refreshQueries(client, refreshes(variables, answer));
    },
  });
}
