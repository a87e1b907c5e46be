import { z } from 'zod';
import { STORAGE_QUOTA_UNITS } from '../enums.js';
import {
  checkbox,
  choice,
  displayText,
  integerField,
  type NumberInput,
  numberInput,
  reportOn,
  toNumber,
  whenFieldsValid,
} from './fields.js';

/** Limits of package templates (000 §5, §9). */
export const PACKAGE_TEMPLATE_LIMITS = {
  nameMax: 100,
  storageQuotaMin: 1,
  storageQuotaMax: 1_024_000_000_000,
  machinesMin: 1,
  machinesMax: 100_000,
  /** 'ticking sets 10, unticking 0' (000 §5). */
  machinesWhenTicked: 10,
  /** noOfMachinesLimit 0 means unlimited (000 §3). */
  unlimitedMachines: 0,
} as const;

/**
 * Field labels of the template forms. 000 §5 fixes 'package template name'; the other labels are
 * ours. The quota input's placeholder mentions MBs (000 §5).
 */
export const PACKAGE_TEMPLATE_LABELS = {
  name: 'package template name',
  storageQuota: 'Storage quota',
  storageQuotaUnit: 'Storage quota unit',
  noOfMachinesLimit: 'Number of machines',
  storageQuotaPlaceholder: 'Storage quota in MBs',
  /** Ours (the spec is silent): a provider's template meant for resellers only. */
  resellersOnly: 'For resellers only',
} as const;

/**
 * A provider's template for resellers only (ours): offered to resellers, never to direct customers or the public
 * sign-up (the domain's `templatesOnOffer`). Optional on the wire, so a caller that does not know it keeps working.
 */
const resellersOnlyField = checkbox.optional();

const nameField = displayText(PACKAGE_TEMPLATE_LABELS.name, PACKAGE_TEMPLATE_LIMITS.nameMax);

const machinesLimitField = integerField(PACKAGE_TEMPLATE_LABELS.noOfMachinesLimit, {
  min: PACKAGE_TEMPLATE_LIMITS.machinesMin,
  max: PACKAGE_TEMPLATE_LIMITS.machinesMax,
});

/** Whether the machine limit applies: the checkbox when the form sends it, else a non-zero number. */
const machinesLimited = (form: { limitNumberOfMachines?: boolean | undefined; noOfMachinesLimit?: NumberInput }) =>
  form.limitNumberOfMachines ?? !(form.noOfMachinesLimit === 0 || form.noOfMachinesLimit === '0');

/**
 * Add package template (000 §5; payload of 000 §7: name, storageQuota, storageQuotaUnit,
 * noOfMachinesLimit). The form adds the 'Limit number of machines?' checkbox `limitNumberOfMachines`:
 * unticked sends 0 (unlimited) whatever the number field holds; ticked requires 1 to 100,000. The
 * server parses the payload without the checkbox: 0 is unlimited, 1 to 100,000 a limit.
 * `resellersOnly` (ours) is the provider's audience switch; absent means for every customer.
 * The quota must be a whole number from 1 (ours: the specification gives only the maximum).
 */
export const packageTemplateAddSchema = z
  .object({
    name: nameField,
    storageQuota: integerField(PACKAGE_TEMPLATE_LABELS.storageQuota, {
      min: PACKAGE_TEMPLATE_LIMITS.storageQuotaMin,
      max: PACKAGE_TEMPLATE_LIMITS.storageQuotaMax,
    }),
    storageQuotaUnit: choice(PACKAGE_TEMPLATE_LABELS.storageQuotaUnit, STORAGE_QUOTA_UNITS),
    limitNumberOfMachines: checkbox.optional(),
    noOfMachinesLimit: numberInput,
    resellersOnly: resellersOnlyField,
  })
  .superRefine(
    (form, ctx) => {
      if (machinesLimited(form)) {
        reportOn(ctx, ['noOfMachinesLimit'], machinesLimitField.safeParse(form.noOfMachinesLimit));
      }
    },
    whenFieldsValid('limitNumberOfMachines', 'noOfMachinesLimit'),
  )
  .transform((form) => ({
    name: form.name,
    storageQuota: form.storageQuota,
    storageQuotaUnit: form.storageQuotaUnit,
    noOfMachinesLimit: machinesLimited(form)
      ? toNumber(form.noOfMachinesLimit)
      : PACKAGE_TEMPLATE_LIMITS.unlimitedMachines,
    resellersOnly: form.resellersOnly ?? false,
  }));
export type PackageTemplateAddForm = z.input<typeof packageTemplateAddSchema>;
export type PackageTemplateAddPayload = z.output<typeof packageTemplateAddSchema>;

/** Defaults of the add form: name empty, quota 10, unit GB, machine limit ticked at 10 (000 §5). */
export const PACKAGE_TEMPLATE_DEFAULTS = {
  name: '',
  storageQuota: 10,
  storageQuotaUnit: 'GB',
  limitNumberOfMachines: true,
  noOfMachinesLimit: PACKAGE_TEMPLATE_LIMITS.machinesWhenTicked,
  resellersOnly: false,
} as const satisfies PackageTemplateAddForm;

/** Ticking 'Limit number of machines?' sets 10, unticking sets 0 (000 §5). */
export function onLimitMachinesToggled<F extends PackageTemplateAddForm>(form: F, ticked: boolean): F {
  return {
    ...form,
    limitNumberOfMachines: ticked,
    noOfMachinesLimit: ticked ? PACKAGE_TEMPLATE_LIMITS.machinesWhenTicked : PACKAGE_TEMPLATE_LIMITS.unlimitedMachines,
  };
}

/**
 * Edit package template: the name, required, max 100 (000 §5; payload of 000 §7: name), and (ours) the provider's
 * audience switch; absent keeps the template's audience, so a caller sending only the name never widens it.
 */
export const packageTemplateEditSchema = z.object({ name: nameField, resellersOnly: resellersOnlyField });
export type PackageTemplateEditForm = z.input<typeof packageTemplateEditSchema>;
export type PackageTemplateEditPayload = z.output<typeof packageTemplateEditSchema>;
