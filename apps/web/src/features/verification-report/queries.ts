import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const verificationReportKeys = {
  settings: () => ['verification-report', 'settings'] as const,
};

/** The customer's monthly verification report mail opt-in (its super admin's). */
export const useVerificationReportSettings = () =>
  useRouteQuery(verificationReportKeys.settings(), ROUTES.verificationReport.settings, {});
