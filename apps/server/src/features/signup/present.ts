import { quotaToBytes, type SignUpOptions } from '@portal/domain';
import type { SignUpRepo } from './repo.js';

type TemplateRow = Awaited<ReturnType<SignUpRepo['templatesOnOffer']>>[number];

/** The sign-up form's choices: each template with its quota in bytes. */
export function presentSignUpOptions(templates: TemplateRow[]): SignUpOptions {
  return {
    templates: templates.map((template) => ({
      id: template.id,
      name: template.name,
      packageQuotaSizeInBytes: quotaToBytes(template.storageQuota, template.storageQuotaUnit),
      noOfMachinesLimit: template.noOfMachinesLimit,
    })),
  };
}
