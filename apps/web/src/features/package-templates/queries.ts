import { type AdminAudience, ROUTES } from '@portal/domain';

export const templateKeys = {
  all: ['package-templates'] as const,
  /** The templates table of an audience (the provider's, or the signed-in reseller's own). */
  list: (audience: AdminAudience) => [...templateKeys.all, audience] as const,
};

/** The template calls of an audience: /boltadmin/backuppackagetemplates… or /admin/mypackagetemplates…. */
export const templateRoutes = (audience: AdminAudience) =>
  audience === 'provider' ? ROUTES.packageTemplates.provider : ROUTES.packageTemplates.reseller;
