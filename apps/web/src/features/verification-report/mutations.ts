import { ROUTES, type VerificationReportSettings } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { verificationReportKeys } from './queries';

/** PUT /admin/verificationreport/settings: answers the saved opt-in. */
export const useSaveVerificationReportSettings = () =>
  useApiMutation({
    request: (payload: VerificationReportSettings) => call(ROUTES.verificationReport.saveSettings, {}, payload),
    refreshes: () => [{ queryKey: verificationReportKeys.settings(), afterMs: 0 }],
  });
