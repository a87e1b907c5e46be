import { LINKING_CODES_PATH, type LinkingCodeResult, MESSAGES } from '@portal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../app/api';
import { handleSubmitResult } from '../../ui';
import { dashboardKeys } from '../dashboard/queries';

/**
 * Making one-time linking codes (issue #5). Each `make()` asks the server for a new code; errors arrive as
 * global messages (or the communication-error toast) through handleSubmitResult. `linkingDone()` refreshes
 * the dashboard's lists, where a machine linked with the code meanwhile now shows.
 */
export function useLinkingCodes() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      handleSubmitResult(call<LinkingCodeResult>('POST', LINKING_CODES_PATH), {
        partialText: MESSAGES.machineLink.codeMadeWithErrors,
        unknownErrorText: MESSAGES.machineLink.unknownWhileMakingCode,
      }),
  });
  const outcome = mutation.data;
  return {
    make: () => mutation.mutate(),
    making: mutation.isPending,
    code: outcome?.kind === 'success' ? outcome.result : null,
    errors: outcome?.globalErrors ?? [],
    reset: () => mutation.reset(),
    linkingDone: () => client.invalidateQueries({ queryKey: dashboardKeys.lists() }),
  };
}

export type LinkingCodes = ReturnType<typeof useLinkingCodes>;
