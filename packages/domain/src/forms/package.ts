import { z } from 'zod';
import type { PackageRequestType } from '../enums.js';
import { fieldRequired, MESSAGES } from '../messages.js';
import { BYTES_PER_MB } from '../sizes.js';
import {
  checkbox,
  chosenId,
  displayText,
  integerField,
  numberInput,
  reportOn,
  toNumber,
  whenFieldsValid,
} from './fields.js';

/** Limits of the backup package forms (000 §5, §9). */
export const PACKAGE_LIMITS = {
  nameMax: 50,
  perMachineMinMb: 10,
  perMachineDefaultMb: 10,
  bytesPerMb: BYTES_PER_MB,
} as const;

/** Field labels of the package forms (ours; the specification names the rules, not the labels). */
export const PACKAGE_LABELS = {
  name: 'Name',
  maxBackupSizePerMachine: 'Max backup size per machine',
  packageTemplateId: 'Package template',
  storageItemId: 'Storage item',
} as const;

/** A package quota in whole MB (rounded down), the maximum of the per-machine limit. */
export const packageQuotaInMb = (packageQuotaSizeInBytes: number) => Math.floor(packageQuotaSizeInBytes / BYTES_PER_MB);

/**
 * Edit backup package (000 §5; payload of 000 §7: name, maxBackupSizePerMachine, in MB). The form adds
 * the checkbox `limitBackupSizePerMachine`: when on the limit is required, at least 10 MB and at most
 * the package quota in MB; when off the package quota is sent. The server parses the payload without
 * the checkbox and applies the same range. A factory, because the maximum is the package's quota.
 */
export function packageEditSchema(packageQuotaMb: number) {
  const perMachine = integerField(PACKAGE_LABELS.maxBackupSizePerMachine, {
    min: PACKAGE_LIMITS.perMachineMinMb,
    max: packageQuotaMb,
    unit: 'MB',
  });
  return z
    .object({
      name: displayText(PACKAGE_LABELS.name, PACKAGE_LIMITS.nameMax),
      limitBackupSizePerMachine: checkbox.optional(),
      maxBackupSizePerMachine: numberInput,
    })
    .superRefine(
      (form, ctx) => {
        if (form.limitBackupSizePerMachine === false) return;
        reportOn(ctx, ['maxBackupSizePerMachine'], perMachine.safeParse(form.maxBackupSizePerMachine));
      },
      whenFieldsValid('limitBackupSizePerMachine', 'maxBackupSizePerMachine'),
    )
    .transform((form) => ({
      name: form.name,
      maxBackupSizePerMachine:
        form.limitBackupSizePerMachine === false ? packageQuotaMb : toNumber(form.maxBackupSizePerMachine),
    }));
}
export type PackageEditForm = z.input<ReturnType<typeof packageEditSchema>>;
export type PackageEditPayload = z.output<ReturnType<typeof packageEditSchema>>;

/**
 * The edit form of a package: the limit is on when the package's per-machine maximum is below its
 * quota; otherwise it is off and the number input holds the default 10 (000 §5).
 */
export function packageEditForm(pkg: {
  name: string;
  maxBackupSizePerMachineInMbs: number | null;
  packageQuotaSizeInBytes: number;
}): PackageEditForm {
  const quotaMb = packageQuotaInMb(pkg.packageQuotaSizeInBytes);
  const limited = pkg.maxBackupSizePerMachineInMbs !== null && pkg.maxBackupSizePerMachineInMbs < quotaMb;
  return {
    name: pkg.name,
    limitBackupSizePerMachine: limited,
    maxBackupSizePerMachine: limited ? pkg.maxBackupSizePerMachineInMbs : PACKAGE_LIMITS.perMachineDefaultMb,
  };
}

/** Turning the per-machine limit on starts from the default 10 MB (000 §5). */
export function onPerMachineLimitToggled<F extends PackageEditForm>(form: F, on: boolean): F {
  return {
    ...form,
    limitBackupSizePerMachine: on,
    maxBackupSizePerMachine: on ? PACKAGE_LIMITS.perMachineDefaultMb : form.maxBackupSizePerMachine,
  };
}

/** "Nothing chosen" in the template selects of purchase and upgrade (000 §5: value not -1). */
export const NO_TEMPLATE_CHOSEN = -1;

// The same choice as sign-up's, with its text: 'Must choose a backup package'.
const templateChoice = chosenId(MESSAGES.signUp.chooseTemplate);

/** Purchase package: a template must be chosen (000 §5; payload of 000 §7: packageTemplateId). */
export const packagePurchaseSchema = z.object({ packageTemplateId: templateChoice });
export type PackagePurchasePayload = z.output<typeof packagePurchaseSchema>;

/** Upgrade or downgrade: a template must be chosen (000 §5; payload of 000 §7: newPackageTemplateId). */
export const packageUpgradeSchema = z.object({ newPackageTemplateId: templateChoice });
export type PackageUpgradePayload = z.output<typeof packageUpgradeSchema>;

/** Request types whose approval links a storage item (000 §5, §7). */
export const requestNeedsStorageItem = (requestType: PackageRequestType) =>
  requestType === 'NEW_SIGNUP' || requestType === 'ADDITIONAL_PACKAGE';

/**
 * Approve a package request (000 §5, §7): new signups and additional packages require a storage item
 * to link (payload storageItemId); a change request sends an empty payload.
 */
export function requestApprovalSchema(requestType: PackageRequestType) {
  if (!requestNeedsStorageItem(requestType)) return z.object({}).transform((): { storageItemId?: number } => ({}));
  return z
    .object({ storageItemId: chosenId(fieldRequired(PACKAGE_LABELS.storageItemId)) })
    .transform((v): { storageItemId?: number } => v);
}
export type RequestApprovalPayload = z.output<ReturnType<typeof requestApprovalSchema>>;
