import {
  type Actor,
  isProviderAdmin,
  MESSAGES,
  mayChange,
  type PackageTemplateAddPayload,
  type PackageTemplateEditPayload,
  type PackageTemplateRow,
  type Paged,
  type Paging,
  pageOf,
} from '@portal/domain';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { presentTemplate } from './present.js';
import type { PackageTemplatesRepo, TemplateOwner } from './repo.js';

/** The provider's templates have no owner; a reseller admin's are its own customer's (000 §6). */
export function templateOwnerOf(actor: Actor): TemplateOwner {
  if (isProviderAdmin(actor)) return null;
  if (actor.customerId === null) throw forbidden();
  return actor.customerId;
}

/**
 * The audience switch is the provider's: a reseller's own templates are for its customers, so a reseller's
 * `resellersOnly` is ignored (stored false on add, left as it is on edit).
 */
const audienceFor = (owner: TemplateOwner, resellersOnly: boolean | undefined) =>
  owner === null ? resellersOnly : undefined;

/**
 * Package templates of the provider and of each reseller (000 §2, §5, §7): list, add, edit, delete.
 * The route's audience decides who calls; the owner comes from the caller, never from the path.
 */
export function createPackageTemplateService(deps: { repo: PackageTemplatesRepo }) {
  const { repo } = deps;

  function owner(actor: Actor, change: boolean): TemplateOwner {
    if (change && !mayChange(actor)) throw forbidden();
    return templateOwnerOf(actor);
  }

  return {
    async page(actor: Actor, paging: Paging): Promise<Paged<PackageTemplateRow>> {
      const { rows, total } = await repo.page(owner(actor, false), paging);
      return pageOf(rows.map(presentTemplate), total, paging.size);
    },

    async add(actor: Actor, payload: PackageTemplateAddPayload): Promise<PackageTemplateRow> {
      const templateOwner = owner(actor, true);
      const resellersOnly = audienceFor(templateOwner, payload.resellersOnly) ?? false;
      return presentTemplate(await repo.insert(templateOwner, { ...payload, resellersOnly }));
    },

    async rename(actor: Actor, templateId: number, payload: PackageTemplateEditPayload): Promise<PackageTemplateRow> {
      const templateOwner = owner(actor, true);
      const resellersOnly = audienceFor(templateOwner, payload.resellersOnly);
      const row = await repo.edit(templateOwner, templateId, { name: payload.name, resellersOnly });
      if (!row) throw notFound();
      return presentTemplate(row);
    },

    async remove(actor: Actor, templateId: number): Promise<void> {
      const outcome = await repo.deleteUnlessUsed(owner(actor, true), templateId);
      if (outcome === 'gone') throw notFound();
      if (outcome === 'inUse') throw badRequest(MESSAGES.packageTemplate.inUse);
    },
  };
}
export type PackageTemplateService = ReturnType<typeof createPackageTemplateService>;
