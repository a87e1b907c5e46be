import { describe, expect, it } from 'vitest';
import {
  migrationCreateSchema,
  STORAGE_FORM_DEFAULTS,
  storageAccountAddSchema,
  storageAccountEditSchema,
  storageAccountMigrationSchema,
  storageLocationCreateSchema,
} from './storage.js';

const first = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues[0];

describe('storage forms (001 §5, §9)', () => {
  it("001 §5: creating a location needs an account with id > 0: 'Must choose a storage account'", () => {
    expect(first(storageLocationCreateSchema.safeParse(STORAGE_FORM_DEFAULTS.storageLocationCreate))).toMatchObject({
      path: ['storageAccountId'],
      message: 'Must choose a storage account',
    });
    expect(storageLocationCreateSchema.parse({ storageAccountId: '2' })).toEqual({ storageAccountId: 2 });
  });

  it.each([
    [
      'a migration',
      migrationCreateSchema,
      'destinationStorageLocationId',
      'Must choose a destination location',
      STORAGE_FORM_DEFAULTS.migrationCreate,
    ],
    [
      'a storage account migration',
      storageAccountMigrationSchema,
      'destinationStorageAccountId',
      'Must choose a destination account',
      STORAGE_FORM_DEFAULTS.storageAccountMigration,
    ],
  ] as const)("001 §5: %s needs a destination: '%s'", (_, schemaFor, field, message, defaults) => {
    expect(first(schemaFor().safeParse(defaults))).toMatchObject({ path: [field], message });
    // The current place is no destination: choosing it gets the same message.
    expect(first(schemaFor(4).safeParse({ [field]: 4 }))?.message).toBe(message);
    expect(schemaFor(4).parse({ [field]: 5 })).toEqual({ [field]: 5 });
  });
});

describe('storage account form (ours: 001 §2 shows no form)', () => {
  const s3 = {
    name: 'Ceph',
    type: 'S3',
    endpoint: 'https://s3.example.com',
    userApi: 'RGW_ADMIN',
    accessKeyId: 'AK',
    secretAccessKey: 'secret',
  };
  const messages = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('needs an http(s) endpoint, the user API and the key of an S3 account; the secret only when adding', () => {
    expect(messages(storageAccountAddSchema.safeParse({ name: 'Ceph', type: 'S3' }))).toEqual({
      endpoint: 'Endpoint is required',
      userApi: 'User API is required',
      accessKeyId: 'Access key ID is required',
      secretAccessKey: 'Secret access key is required',
    });
    expect(messages(storageAccountEditSchema.safeParse({ ...s3, secretAccessKey: '' }))).toEqual({});
    expect(messages(storageAccountAddSchema.safeParse({ ...s3, endpoint: 'javascript:alert(1)' }))).toEqual({
      endpoint: 'Endpoint is not valid',
    });
    expect(messages(storageAccountAddSchema.safeParse({ ...s3, userApi: 'FTP' }))).toEqual({
      userApi: 'User API is not valid',
    });
  });

  it('drops, unchecked, what a LOCAL account does not use', () => {
    const local = storageAccountAddSchema.parse({
      ...s3,
      type: 'LOCAL',
      endpoint: 'not a url',
      requireObjectLock: true,
    });
    expect(local).toMatchObject({
      type: 'LOCAL',
      endpoint: '',
      userApi: null,
      accessKeyId: '',
      secretAccessKey: '',
      requireObjectLock: true,
    });
  });

  it('names the type and the name on their fields', () => {
    expect(messages(storageAccountAddSchema.safeParse({ ...s3, name: ' ', type: '' }))).toMatchObject({
      name: 'Name is required',
      type: 'Type is required',
    });
    expect(messages(storageAccountAddSchema.safeParse({ ...s3, name: 'x'.repeat(101) }))).toEqual({
      name: 'Name must be at most 100 characters',
    });
  });
});
