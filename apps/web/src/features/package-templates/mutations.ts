import {
  type AdminAudience,
  type PackageTemplateAddPayload,
  type PackageTemplateEditPayload,
  TIMINGS,
} from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { templateKeys, templateRoutes } from './queries';

/** 000 §2, §9: the template list refreshes 2 s after a change. */
const listRefresh = (audience: AdminAudience): Refresh[] => [
  { queryKey: templateKeys.list(audience), afterMs: TIMINGS.templateListRefreshMs },
];

/** POST …backuppackagetemplates (000 §7): answers the new template. */
export const useAddTemplate = (audience: AdminAudience) =>
  useApiMutation({
    request: (payload: PackageTemplateAddPayload) => call(templateRoutes(audience).add, {}, payload),
    refreshes: () => listRefresh(audience),
  });

/** PUT …backuppackagetemplates/{id}, the name only (000 §5, §7). */
export const useRenameTemplate = (audience: AdminAudience) =>
  useApiMutation({
    request: ({ templateId, payload }: { templateId: number; payload: PackageTemplateEditPayload }) =>
      call(templateRoutes(audience).edit, { templateId }, payload),
    refreshes: () => listRefresh(audience),
  });

/** DELETE …backuppackagetemplates/{id} (000 §7). */
export const useDeleteTemplate = (audience: AdminAudience) =>
  useApiMutation({
    request: (templateId: number) => call(templateRoutes(audience).remove, { templateId }),
    refreshes: () => listRefresh(audience),
  });
