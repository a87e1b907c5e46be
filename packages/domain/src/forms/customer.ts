import { z } from 'zod';
import { customerStatusChangeQuerySchema } from '../customers.js';
import { type OsFamily, PAYMENT_METHODS, type PaymentMethod } from '../enums.js';
import { fieldRequired, MESSAGES } from '../messages.js';
import { checkbox, choice, chosenId, optionalDisplayText, whenFieldsValid } from './fields.js';

/** Limits of the customer forms (001 §5, §9). */
export const CUSTOMER_LIMITS = {
  companyNameMax: 50,
} as const;

/** Field labels of the customer forms (ours). */
export const CUSTOMER_FORM_LABELS = {
  companyName: 'Company name',
  userIdToBeAdmin: 'Super admin user',
  cpanelPluginEnabled: 'cPanel plugin enabled',
  allowProviderMachineControl: 'Allow provider machine control',
  whmcsServerId: 'Billing server',
  paymentMethod: 'Payment method',
  volumeSnapshotsEnabled: 'Volume snapshots enabled',
  customerId: 'Customer',
} as const;

const L = CUSTOMER_FORM_LABELS;

/**
 * Edit customer account (001 §5; payload of 001 §3, §7: companyName, userIdToBeAdmin,
 * cpanelPluginEnabled, allowProviderMachineControl). companyName max 50 and optional (the display
 * falls back to the super admin's name, 000 §3); the super admin user required. The
 * allow-provider-control checkbox is shown only for customers not of the main brand, so it is optional:
 * absent means unchanged.
 */
export const customerAccountEditSchema = z.object({
  companyName: optionalDisplayText(L.companyName, CUSTOMER_LIMITS.companyNameMax),
  userIdToBeAdmin: chosenId(fieldRequired(L.userIdToBeAdmin)),
  cpanelPluginEnabled: checkbox.default(false),
  allowProviderMachineControl: checkbox.optional(),
});
export type CustomerAccountEditForm = z.input<typeof customerAccountEditSchema>;
export type CustomerAccountEditPayload = z.output<typeof customerAccountEditSchema>;

/** Whether the allow-provider-control option is shown: not for customers of the main brand (001 §6). */
export const showsProviderMachineControl = (boltCustomer: boolean) => !boltCustomer;

/** Edit customer plugin settings (002 §3, §7.3: body cpanelPluginEnabled). */
export const customerPluginSettingsSchema = z.object({ cpanelPluginEnabled: checkbox });
export type CustomerPluginSettingsPayload = z.output<typeof customerPluginSettingsSchema>;

/** The default payment method of a billing server change (002 §9). */
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'banktransfer';

/**
 * Change the billing server of a customer (002 §2.5, §5.4, §7.3: ?whmcsServerId={id}&paymentMethod=
 * {method}). A server must be chosen; the dialog leaves the customer's current server out of the
 * choices, so choosing it is refused ('Must choose a billing server other than the current one',
 * ours). paymentMethod is payfast, stripe or banktransfer, default banktransfer. The admin-name
 * confirmation is customerWhmcsServerChangeConfirmSchema (confirm.ts).
 */
export function billingServerChangeSchema(currentWhmcsServerId: number | null) {
  return z
    .object({
      whmcsServerId: chosenId(fieldRequired(L.whmcsServerId)),
      paymentMethod: choice(L.paymentMethod, PAYMENT_METHODS).default(DEFAULT_PAYMENT_METHOD),
    })
    .superRefine((form, ctx) => {
      if (currentWhmcsServerId !== null && form.whmcsServerId === currentWhmcsServerId) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.customer.sameWhmcsServer, path: ['whmcsServerId'] });
      }
    }, whenFieldsValid('whmcsServerId'));
}
export type BillingServerChangeForm = z.input<ReturnType<typeof billingServerChangeSchema>>;
export type BillingServerChangePayload = z.output<ReturnType<typeof billingServerChangeSchema>>;

/** A query of the provider's PUT /boltadmin/customers/{id} that changes the billing server, not the status. */
export const isBillingServerChange = (query: object): boolean => 'whmcsServerId' in query;

/**
 * The provider's PUT /boltadmin/customers/{id} query (002 §7.3): ?status={newStatus}, or
 * ?whmcsServerId=&paymentMethod= to move the customer to another billing server (told apart by
 * isBillingServerChange, and each parsed with its own schema so errors land on their fields).
 */
export const providerCustomerChangeQuerySchema = z.union([
  customerStatusChangeQuerySchema,
  billingServerChangeSchema(null),
]);

/** Volume snapshots are editable only for Windows machines (002 §5.5). */
export const volumeSnapshotsEditable = (osFamily: OsFamily) => osFamily === 'WINDOWS';

/** The body of the volume snapshots PUT before the machine is known (its route entry); the OS rule follows. */
export const volumeSnapshotsBodySchema = z.object({ volumeSnapshotsEnabled: checkbox });

/**
 * Edit backup task (volume snapshots) of the customer administration (002 §3, §7.3: body
 * volumeSnapshotsEnabled). Only Windows machines may turn them on (002 §5.5); turning them off is
 * always allowed.
 */
export function volumeSnapshotsSchema(osFamily: OsFamily) {
  return volumeSnapshotsBodySchema.superRefine((form, ctx) => {
    if (form.volumeSnapshotsEnabled && !volumeSnapshotsEditable(osFamily)) {
      ctx.addIssue({
        code: 'custom',
        message: MESSAGES.customer.volumeSnapshotsWindowsOnly,
        path: ['volumeSnapshotsEnabled'],
      });
    }
  });
}
export type VolumeSnapshotsPayload = z.output<ReturnType<typeof volumeSnapshotsSchema>>;

/**
 * Select new reseller (002 §2.5, §4.5): a customer must be chosen before the confirmation dialog; the
 * call itself (PUT /boltadmin/customers/{id}/makereseller) has an empty body.
 */
export const makeResellerSelectSchema = z.object({ customerId: chosenId(fieldRequired(L.customerId)) });
export type MakeResellerSelectPayload = z.output<typeof makeResellerSelectSchema>;
