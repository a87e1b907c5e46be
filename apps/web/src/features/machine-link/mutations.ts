import { type LinkingCodeResult, MESSAGES, ROUTES } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../app/api';
import { refreshQueries, useApiMutation, useDialogSubmit } from '../../ui';
import { dashboardKeys } from '../dashboard/queries';

/** POST /backupmachines/linkingcodes (issue #5): a new one-time code; nothing shown changes until it is used. */
export const useMakeLinkingCode = () =>
  useApiMutation<void, LinkingCodeResult>({
    request: () => call(ROUTES.machineLink.linkingCodes, {}),
    refreshes: () => [],
  });

/**
 * Making one-time linking codes (issue #5). Each `make()` asks the server for a new code; errors arrive as
 * global messages (or the communication-error toast) through useDialogSubmit. `linkingDone()` refreshes
 * the dashboard's lists, where a machine linked with the code meanwhile now shows.
 */
export function useLinkingCodes() {
  const client = useQueryClient();
  const mutation = useMakeLinkingCode();
  const { submit, globalErrors, clearErrors, submitting } = useDialogSubmit({
    mutation,
    partialText: MESSAGES.machineLink.codeMadeWithErrors,
    unknownErrorText: MESSAGES.machineLink.unknownWhileMakingCode,
  });
  const [code, setCode] = useState<LinkingCodeResult | null>(null);
  const make = async () => {
    // The previous code is not offered while the new one is made.
    setCode(null);
    const outcome = await submit();
    if (outcome.kind === 'success') setCode(outcome.result);
  };
  return {
    make: () => void make(),
    making: submitting,
    code,
    errors: globalErrors,
    reset: () => {
      setCode(null);
      clearErrors();
    },
    linkingDone: () => refreshQueries(client, [{ queryKey: dashboardKeys.lists(), afterMs: 0 }]),
  };
}

export type LinkingCodes = ReturnType<typeof useLinkingCodes>;
