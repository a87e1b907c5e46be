import type { PackageTemplateAddPayload, PackageTemplateEditPayload, Paging } from '@portal/domain';
import { and, asc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import { backupPackages, packageRequests, packageTemplates } from '../../db/schema/index.js';

/** Whose templates: the provider's (null) or a reseller's (its customer id). */
export type TemplateOwner = number | null;

export const ownedBy = (owner: TemplateOwner): SQL =>
  owner === null ? isNull(packageTemplates.ownerCustomerId) : eq(packageTemplates.ownerCustomerId, owner);

/** A template's own fields, as its table and a package made from it read them. */
export const templateFields = {
  id: packageTemplates.id,
  name: packageTemplates.name,
  storageQuota: packageTemplates.storageQuota,
  storageQuotaUnit: packageTemplates.storageQuotaUnit,
  noOfMachinesLimit: packageTemplates.noOfMachinesLimit,
  resellersOnly: packageTemplates.resellersOnly,
};
export type TemplateRecord = { [K in keyof typeof templateFields]: (typeof packageTemplates.$inferSelect)[K] };

/**
 * The queries of package templates (000 §2, §3). Every lookup takes the owner, so another tenant's
 * template is simply not found.
 */
export function createPackageTemplatesRepo(db: Executor) {
  return {
    async page(owner: TemplateOwner, paging: Paging): Promise<{ rows: TemplateRecord[]; total: number }> {
      return selectPage(
        db
          .select(templateFields)
          .from(packageTemplates)
          .where(ownedBy(owner))
          .orderBy(asc(packageTemplates.name), asc(packageTemplates.id)),
        () => countOf(db, packageTemplates, ownedBy(owner)),
        paging,
      );
    },

    async find(owner: TemplateOwner, templateId: number): Promise<TemplateRecord | null> {
      return oneOrNull(
        db
          .select(templateFields)
          .from(packageTemplates)
          .where(and(ownedBy(owner), eq(packageTemplates.id, templateId))),
      );
    },

    async insert(owner: TemplateOwner, template: PackageTemplateAddPayload): Promise<TemplateRecord> {
      const [row] = await db
        .insert(packageTemplates)
        .values({ ...template, ownerCustomerId: owner })
        .returning(templateFields);
      if (!row) throw new Error('package template not inserted');
      return row;
    },

    /** Renames the template and, when the edit carries it, sets its audience. */
    async edit(
      owner: TemplateOwner,
      templateId: number,
      edit: PackageTemplateEditPayload,
    ): Promise<TemplateRecord | null> {
      return oneOrNull(
        db
          .update(packageTemplates)
          .set({ name: edit.name, ...(edit.resellersOnly === undefined ? {} : { resellersOnly: edit.resellersOnly }) })
          .where(and(ownedBy(owner), eq(packageTemplates.id, templateId)))
          .returning(templateFields),
      );
    },

    /**
     * Deletes the template unless a package or a pending request uses it, in one statement, so a
     * package made from it at the same moment either sees it gone or keeps it. 'gone' when the
     * owner has no such template.
     */
    async deleteUnlessUsed(owner: TemplateOwner, templateId: number): Promise<'deleted' | 'inUse' | 'gone'> {
      const used = or(
        sql`exists (select 1 from ${backupPackages} where ${backupPackages.templateId} = ${packageTemplates.id} or ${backupPackages.requestedTemplateId} = ${packageTemplates.id})`,
        sql`exists (select 1 from ${packageRequests} where ${packageRequests.requestedTemplateId} = ${packageTemplates.id} and ${packageRequests.status} = 'PENDING')`,
      );
      const deleted = await db
        .delete(packageTemplates)
        .where(and(ownedBy(owner), eq(packageTemplates.id, templateId), sql`not (${used})`))
        .returning({ id: packageTemplates.id });
      if (deleted.length > 0) return 'deleted';
      return (await this.find(owner, templateId)) ? 'inUse' : 'gone';
    },
  };
}
export type PackageTemplatesRepo = ReturnType<typeof createPackageTemplatesRepo>;
