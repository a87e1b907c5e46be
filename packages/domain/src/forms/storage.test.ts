import { describe, expect, it } from 'vitest';
import {
  migrationCreateSchema,
  STORAGE_FORM_DEFAULTS,
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

  it("001 §5: a migration needs a destination: 'Must choose a destination location'", () => {
    expect(first(migrationCreateSchema().safeParse(STORAGE_FORM_DEFAULTS.migrationCreate))).toMatchObject({
      path: ['destinationStorageLocationId'],
      message: 'Must choose a destination location',
    });
    expect(first(migrationCreateSchema(4).safeParse({ destinationStorageLocationId: 4 }))?.message).toBe(
      'Must choose a destination location',
    );
    expect(migrationCreateSchema(4).parse({ destinationStorageLocationId: 5 })).toEqual({
      destinationStorageLocationId: 5,
    });
  });

  it("001 §5: a storage account migration needs a destination: 'Must choose a destination account'", () => {
    expect(
      first(storageAccountMigrationSchema().safeParse(STORAGE_FORM_DEFAULTS.storageAccountMigration)),
    ).toMatchObject({
      path: ['destinationStorageAccountId'],
      message: 'Must choose a destination account',
    });
    expect(first(storageAccountMigrationSchema(1).safeParse({ destinationStorageAccountId: 1 }))?.message).toBe(
      'Must choose a destination account',
    );
    expect(storageAccountMigrationSchema(1).parse({ destinationStorageAccountId: 2 })).toEqual({
      destinationStorageAccountId: 2,
    });
  });
});
