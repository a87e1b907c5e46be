import { type RestoreTestSettings, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { restoreTestKeys, type TaskOfMachine } from './queries';

/** 'Test restore now': the task's last test and history show it at once (RUNNING). */
export const useStartRestoreTest = (ref: TaskOfMachine) =>
  useApiMutation({
    request: () => call(ROUTES.restoreTests.start, ref),
    refreshes: () => [{ queryKey: restoreTestKeys.task(ref), afterMs: 0 }],
  });

/** PUT /admin/restoretestsettings: the section shows the setting the server answered with. */
export const useSaveRestoreTestSettings = () =>
  useApiMutation({
    request: (payload: RestoreTestSettings) => call(ROUTES.restoreTests.saveSettings, {}, payload),
    onApplied: ({ envelope }, _payload, client) => {
      if (envelope.result) client.setQueryData(restoreTestKeys.settings(), envelope.result);
    },
    refreshes: (_payload, { envelope }) =>
      envelope.result ? [] : [{ queryKey: restoreTestKeys.settings(), afterMs: 0 }],
  });
