import { type PackageTemplateRow, quotaToBytes } from '@portal/domain';
import type { TemplateRecord } from './repo.js';

/** A template's wire row (000 §3), field by field; the byte count is for the human-readable quota. */
export function presentTemplate(template: TemplateRecord): PackageTemplateRow {
  return {
    id: template.id,
    name: template.name,
    storageQuota: template.storageQuota,
    storageQuotaUnit: template.storageQuotaUnit,
    noOfMachinesLimit: template.noOfMachinesLimit,
    storageQuotaInBytes: quotaToBytes(template.storageQuota, template.storageQuotaUnit),
    resellersOnly: template.resellersOnly,
  };
}
