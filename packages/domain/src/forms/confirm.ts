import { z } from 'zod';
import { MESSAGES } from '../messages.js';

/**
 * Destructive confirmations by typing a name (000 §5, 001 §5, 002 §5.4, §5.8). "Exact" means exact:
 * no trimming and no case folding, and an empty expected name needs an empty entry (002 §5.4). The
 * typed text is the form field `name` (the web's ConfirmByNameDialog); the call itself has no body.
 */
export function confirmByNameSchema(expected: string, message: string) {
  return z.object({
    name: z.string({ error: message }).refine((typed) => typed === expected, { error: message }),
  });
}
export type ConfirmByNameInput = z.input<ReturnType<typeof confirmByNameSchema>>;

/** Backup package deletion and status change: the package name (000 §5). */
export const packageDeletionConfirmSchema = (packageName: string) =>
  confirmByNameSchema(packageName, MESSAGES.confirmByName.packageDeletion);
export const packageStatusChangeConfirmSchema = (packageName: string) =>
  confirmByNameSchema(packageName, MESSAGES.confirmByName.packageStatusChange);

/** Backup machine deletion and status change: the machine name (001 §5). */
export const machineDeletionConfirmSchema = (machineName: string) =>
  confirmByNameSchema(machineName, MESSAGES.confirmByName.machineDeletion);
export const machineStatusChangeConfirmSchema = (machineName: string) =>
  confirmByNameSchema(machineName, MESSAGES.confirmByName.machineStatusChange);

/**
 * The name a customer confirmation expects: the customer admin's full name, or '' when the customer
 * has none ('If the customer has no admin name, deletion needs an empty entry', 002 §5.4).
 */
export const customerAdminConfirmName = (superAdminFullName: string | null | undefined) => superAdminFullName ?? '';

/** Customer deletion, status change and WHMCS server change (002 §5.4). */
export const customerDeletionConfirmSchema = (superAdminFullName: string | null | undefined) =>
  confirmByNameSchema(customerAdminConfirmName(superAdminFullName), MESSAGES.confirmByName.customerDeletion);
export const customerStatusChangeConfirmSchema = (superAdminFullName: string | null | undefined) =>
  confirmByNameSchema(customerAdminConfirmName(superAdminFullName), MESSAGES.confirmByName.customerStatusChange);
export const customerWhmcsServerChangeConfirmSchema = (superAdminFullName: string | null | undefined) =>
  confirmByNameSchema(customerAdminConfirmName(superAdminFullName), MESSAGES.confirmByName.customerWhmcsServerChange);

/** A storage location's name: the bucket name, plus '/' and the subfolder when there is one (001 §5). */
export function storageLocationName(location: { bucketName: string; subfolder?: string | null }): string {
  return location.subfolder ? `${location.bucketName}/${location.subfolder}` : location.bucketName;
}

/** Storage location deletion and make-default (001 §5). */
export const storageLocationDeletionConfirmSchema = (location: { bucketName: string; subfolder?: string | null }) =>
  confirmByNameSchema(storageLocationName(location), MESSAGES.confirmByName.storageLocationDeletion);
export const storageLocationMakeDefaultConfirmSchema = (location: { bucketName: string; subfolder?: string | null }) =>
  confirmByNameSchema(storageLocationName(location), MESSAGES.confirmByName.storageLocationMakeDefault);

/** Snapshot archive deletion and task deletion: the exact task name (002 §5.8). */
export const archiveDeletionConfirmSchema = (taskName: string) =>
  confirmByNameSchema(taskName, MESSAGES.confirmByName.archiveDeletion);
export const taskDeletionConfirmSchema = (taskName: string) =>
  confirmByNameSchema(taskName, MESSAGES.confirmByName.taskDeletion);
