import { quotaToBytes, type SignUpOptions } from '@portal/domain';
import type { TemplateRecord } from '../purchase/repo.js';

/** The sign-up form's choices: each template on offer by its plain name, with its quota in bytes. */
export function presentSignUpOptions(templates: readonly TemplateRecord[]): SignUpOptions {
  return {
    templates: templates.map((template) => ({
      id: template.id,
      name: template.name,
      packageQuotaSizeInBytes: quotaToBytes(template.storageQuota, template.storageQuotaUnit),
      noOfMachinesLimit: template.noOfMachinesLimit,
    })),
  };
}
