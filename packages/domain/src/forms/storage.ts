import { z } from 'zod';
import { STORAGE_ACCOUNT_TYPES, STORAGE_USER_APIS, type StorageUserApi } from '../enums.js';
import { fieldNotValid, fieldRequired, MESSAGES } from '../messages.js';
import {
  checkbox,
  choice,
  chosenId,
  displayText,
  isWebUrl,
  optionalText,
  requiredText,
  whenFieldsValid,
} from './fields.js';

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

/** A migration's destination: an id > 0 chosen in `field`, and not `source`, where the data is now (same message). */
function destinationSchema<const F extends string>(field: F, message: string, source: number | null) {
  const fields = { [field]: chosenId(message) } as Record<F, ReturnType<typeof chosenId>>;
  return z.object(fields).superRefine((form, ctx) => {
    // TypeScript cannot index zod's computed output with a type parameter; the field is the chosen id.
    if ((form as Record<F, number>)[field] === source) ctx.addIssue({ code: 'custom', message, path: [field] });
  }, whenFieldsValid(field));
}

/**
 * Create a package migration (001 §5, §7: body destinationStorageLocationId): a destination with
 * id > 0 must be chosen. Ours: the package's current location is no destination, and choosing it gets
 * the same message.
 */
export function migrationCreateSchema(currentStorageLocationId: number | null = null) {
  return destinationSchema(
    'destinationStorageLocationId',
    MESSAGES.migration.chooseDestinationLocation,
    currentStorageLocationId,
  );
}
export type MigrationCreatePayload = z.output<ReturnType<typeof migrationCreateSchema>>;

/**
 * Storage account migration (001 §5, §7: body destinationStorageAccountId): a destination account must
 * be chosen. Ours: the source account is no destination, and choosing it gets the same message.
 */
export function storageAccountMigrationSchema(sourceStorageAccountId: number | null = null) {
  return destinationSchema(
    'destinationStorageAccountId',
    MESSAGES.storageAccount.chooseDestinationAccount,
    sourceStorageAccountId,
  );
}
export type StorageAccountMigrationPayload = z.output<ReturnType<typeof storageAccountMigrationSchema>>;

// --- Add / edit a storage account (ours: 001 §2 shows no form; 002 §3 names the type) ------------------

/** Limits of the storage account form (the columns of storage_accounts). */
export const STORAGE_ACCOUNT_LIMITS = {
  nameMax: 100,
  endpointMax: 255,
  regionMax: 50,
  accessKeyIdMax: 128,
  secretMax: 255,
} as const;

/** Field labels of the storage account form. */
export const STORAGE_ACCOUNT_FORM_LABELS = {
  name: 'Name',
  type: 'Type',
  endpoint: 'Endpoint',
  iamEndpoint: 'IAM endpoint',
  region: 'Region',
  forcePathStyle: 'Path-style bucket addressing',
  userApi: 'User API',
  accessKeyId: 'Access key ID',
  secretAccessKey: 'Secret access key',
  requireObjectLock: 'Require Object Lock for new buckets',
} as const;

const SA = STORAGE_ACCOUNT_FORM_LABELS;
const isUserApi = (value: string): value is StorageUserApi => (STORAGE_USER_APIS as readonly string[]).includes(value);
const SAL = STORAGE_ACCOUNT_LIMITS;

/**
 * Add or edit a storage account. LOCAL is the embedded service: it needs no endpoint or keys, and what
 * the form holds for them is dropped unchecked. S3 needs an endpoint (http or https), the API managing its users,
 * and the account's access key; its secret is required on add, and on edit (`editing`) an empty one keeps
 * the stored secret, as the form never shows it. Only one LOCAL account may exist (the server checks).
 */
export function storageAccountSchema(editing: boolean) {
  return z
    .object({
      name: displayText(SA.name, SAL.nameMax),
      type: choice(SA.type, STORAGE_ACCOUNT_TYPES),
      endpoint: optionalText(SA.endpoint, SAL.endpointMax),
      iamEndpoint: optionalText(SA.iamEndpoint, SAL.endpointMax),
      region: optionalText(SA.region, SAL.regionMax),
      forcePathStyle: checkbox.default(false),
      userApi: optionalText(SA.userApi, 20)
        .refine((v) => v === '' || isUserApi(v), fieldNotValid(SA.userApi))
        .transform((v) => (isUserApi(v) ? v : null)),
      accessKeyId: optionalText(SA.accessKeyId, SAL.accessKeyIdMax),
      secretAccessKey: optionalText(SA.secretAccessKey, SAL.secretMax),
      requireObjectLock: checkbox.default(false),
    })
    .superRefine((form, ctx) => {
      if (form.type !== 'S3') return;
      const required = (field: 'endpoint' | 'accessKeyId' | 'secretAccessKey' | 'userApi') => {
        if (!form[field]) ctx.addIssue({ code: 'custom', message: fieldRequired(SA[field]), path: [field] });
      };
      required('endpoint');
      for (const field of ['endpoint', 'iamEndpoint'] as const) {
        if (form[field] && !isWebUrl(form[field])) {
          ctx.addIssue({ code: 'custom', message: fieldNotValid(SA[field]), path: [field] });
        }
      }
      required('userApi');
      required('accessKeyId');
      if (!editing) required('secretAccessKey');
    })
    .transform((form) =>
      form.type === 'LOCAL'
        ? {
            ...form,
            endpoint: '',
            iamEndpoint: '',
            region: '',
            forcePathStyle: false,
            userApi: null,
            accessKeyId: '',
            secretAccessKey: '',
          }
        : form,
    );
}
export const storageAccountAddSchema = storageAccountSchema(false);
export const storageAccountEditSchema = storageAccountSchema(true);
export type StorageAccountForm = z.input<typeof storageAccountAddSchema>;
export type StorageAccountPayload = z.output<typeof storageAccountEditSchema>;

/** A new account's form as it opens: S3, since the embedded LOCAL account usually exists already. */
export const STORAGE_ACCOUNT_DEFAULTS: StorageAccountForm = {
  name: '',
  type: 'S3',
  endpoint: '',
  iamEndpoint: '',
  region: '',
  forcePathStyle: true,
  userApi: 'RGW_ADMIN',
  accessKeyId: '',
  secretAccessKey: '',
  requireObjectLock: false,
};

/**
 * Test connection of the form before saving: its fields, plus the account being edited, whose stored
 * secret stands in for an empty one.
 */
export const storageAccountTestSchema = z.intersection(
  storageAccountEditSchema,
  z.object({ id: z.number().int().positive().nullish() }),
);

/** PUT .../deleteuser (001 §7: body username). */
export const storageUserDeleteSchema = z.object({
  username: requiredText('Username', SAL.accessKeyIdMax),
});

/** PUT .../deletebucketpolicyprincipal (001 §7: body bucketName, principalName). */
export const bucketPolicyPrincipalDeleteSchema = z.object({
  bucketName: requiredText('Bucket name', 63),
  principalName: requiredText('Principal name', SAL.accessKeyIdMax),
});

/** GET /boltadmin/storageaccounts/setDefaultStorageAccount?storageAccountId={id} (001 §7). */
export const setDefaultStorageAccountQuerySchema = z.object({
  storageAccountId: chosenId(fieldNotValid('storageAccountId')),
});
