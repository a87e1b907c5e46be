import { describe, expect, it } from 'vitest';
import {
  isStorageLocationDeletable,
  locationStorageUserName,
  machineStorageUserName,
  STORAGE_LOCATION_TEXTS,
  storageLocationDeletionRefusal,
  typeStorageLocationName,
} from './storage-locations.js';

describe('storage location deletion (001 §6)', () => {
  it('is allowed only when not the default and with fewer than 1 package, with the reason otherwise', () => {
    const cases = [
      { defaultForCustomer: false, numberOfBackupPackages: 0, refusal: null },
      { defaultForCustomer: true, numberOfBackupPackages: 0, refusal: STORAGE_LOCATION_TEXTS.defaultNotDeletable },
      {
        defaultForCustomer: false,
        numberOfBackupPackages: 1,
        refusal: STORAGE_LOCATION_TEXTS.withPackagesNotDeletable,
      },
      { defaultForCustomer: true, numberOfBackupPackages: 3, refusal: STORAGE_LOCATION_TEXTS.defaultNotDeletable },
    ];
    for (const { refusal, ...location } of cases) {
      expect(isStorageLocationDeletable(location)).toBe(refusal === null);
      expect(storageLocationDeletionRefusal(location)).toBe(refusal);
    }
  });
});

describe('names', () => {
  it('names the storage users the portal makes after their location or machine', () => {
    expect(locationStorageUserName(12)).toBe('portal-location-12');
    expect(machineStorageUserName(7)).toBe('portal-machine-7');
  });

  it("asks for the location's name: the bucket, plus '/' and the subfolder when there is one", () => {
    expect(typeStorageLocationName({ bucketName: 'c1-acme', subfolder: 'c9' })).toContain('(c1-acme/c9)');
    expect(typeStorageLocationName({ bucketName: 'c1-acme', subfolder: null })).toContain('(c1-acme)');
  });
});
