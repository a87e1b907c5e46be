import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { chosenId, whenFieldsValid } from './fields.js';

/** The "nothing chosen" values of the storage selects (001 §9): storageAccountId -1, destination ids 0. */
export const STORAGE_FORM_DEFAULTS = {
  storageLocationCreate: { storageAccountId: -1 },
  migrationCreate: { destinationStorageLocationId: 0 },
  storageAccountMigration: { destinationStorageAccountId: 0 },
} as const;

/** Create storage location (001 §5, §7: body storageAccountId): an account with id > 0 must be chosen. */
export const storageLocationCreateSchema = z.object({
  storageAccountId: chosenId(MESSAGES.storageLocation.chooseStorageAccount),
});
export type StorageLocationCreatePayload = z.output<typeof storageLocationCreateSchema>;

/**
 * Create a package migration (001 §5, §7: body destinationStorageLocationId): a destination with
 * id > 0 must be chosen. Ours: the package's current location is no destination, and choosing it gets
 * the same message.
 */
export function migrationCreateSchema(currentStorageLocationId: number | null = null) {
  return z
    .object({ destinationStorageLocationId: chosenId(MESSAGES.migration.chooseDestinationLocation) })
    .superRefine((form, ctx) => {
      if (form.destinationStorageLocationId === currentStorageLocationId) {
        ctx.addIssue({
          code: 'custom',
          message: MESSAGES.migration.chooseDestinationLocation,
          path: ['destinationStorageLocationId'],
        });
      }
    }, whenFieldsValid('destinationStorageLocationId'));
}
export type MigrationCreatePayload = z.output<ReturnType<typeof migrationCreateSchema>>;

/**
 * Storage account migration (001 §5, §7: body destinationStorageAccountId): a destination account must
 * be chosen. Ours: the source account is no destination, and choosing it gets the same message.
 */
export function storageAccountMigrationSchema(sourceStorageAccountId: number | null = null) {
  return z
    .object({ destinationStorageAccountId: chosenId(MESSAGES.storageAccount.chooseDestinationAccount) })
    .superRefine((form, ctx) => {
      if (form.destinationStorageAccountId === sourceStorageAccountId) {
        ctx.addIssue({
          code: 'custom',
          message: MESSAGES.storageAccount.chooseDestinationAccount,
          path: ['destinationStorageAccountId'],
        });
      }
    }, whenFieldsValid('destinationStorageAccountId'));
}
export type StorageAccountMigrationPayload = z.output<ReturnType<typeof storageAccountMigrationSchema>>;
