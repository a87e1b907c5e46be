import { describe, expect, it } from 'vitest';
import { messagesByField } from './fields.js';
import {
  NO_TEMPLATE_CHOSEN,
  onPerMachineLimitToggled,
  PACKAGE_LIMITS,
  packageEditForm,
  packageEditSchema,
  packagePurchaseSchema,
  packageQuotaInMb,
  packageUpgradeSchema,
  requestApprovalSchema,
  requestNeedsStorageItem,
} from './package.js';

const MB = 1_048_576;

describe('backup package edit (000 §5)', () => {
  const schema = packageEditSchema(1024);
  const errors = (input: unknown) => messagesByField(schema.safeParse(input).error?.issues ?? []);

  it('000 §5: name required, max 50', () => {
    expect(errors({ name: '', limitBackupSizePerMachine: false })).toEqual({ name: 'Name is required' });
    expect(errors({ name: 'x'.repeat(51), limitBackupSizePerMachine: false })).toEqual({
      name: 'Name must be at most 50 characters',
    });
  });

  it('000 §5: with the limit on, it is required, at least 10 MB and at most the quota in MB', () => {
    const on = { name: 'Gold', limitBackupSizePerMachine: true };
    expect(errors({ ...on, maxBackupSizePerMachine: '' })).toEqual({
      maxBackupSizePerMachine: 'Max backup size per machine is required',
    });
    expect(errors({ ...on, maxBackupSizePerMachine: 9 })).toEqual({
      maxBackupSizePerMachine: 'Max backup size per machine must be at least 10 MB',
    });
    expect(errors({ ...on, maxBackupSizePerMachine: 1025 })).toEqual({
      maxBackupSizePerMachine: 'Max backup size per machine must be at most 1,024 MB',
    });
    expect(schema.parse({ ...on, maxBackupSizePerMachine: '1024' })).toEqual({
      name: 'Gold',
      maxBackupSizePerMachine: 1024,
    });
  });

  it('000 §5: with the limit off, the package quota is sent', () => {
    expect(schema.parse({ name: 'Gold', limitBackupSizePerMachine: false, maxBackupSizePerMachine: '' })).toEqual({
      name: 'Gold',
      maxBackupSizePerMachine: 1024,
    });
  });

  it('000 §7: the server reads the payload without the checkbox and applies the range', () => {
    expect(schema.parse({ name: 'Gold', maxBackupSizePerMachine: 10 }).maxBackupSizePerMachine).toBe(10);
    expect(errors({ name: 'Gold', maxBackupSizePerMachine: 2048 })).toHaveProperty('maxBackupSizePerMachine');
  });

  it('000 §5, §9: the form of a package, default 10, quota in whole MB', () => {
    expect(packageQuotaInMb(5 * MB + 7)).toBe(5);
    expect(
      packageEditForm({ name: 'Gold', maxBackupSizePerMachineInMbs: 100, packageQuotaSizeInBytes: 1024 * MB }),
    ).toEqual({
      name: 'Gold',
      limitBackupSizePerMachine: true,
      maxBackupSizePerMachine: 100,
    });
    expect(
      packageEditForm({ name: 'Gold', maxBackupSizePerMachineInMbs: 1024, packageQuotaSizeInBytes: 1024 * MB }),
    ).toEqual({
      name: 'Gold',
      limitBackupSizePerMachine: false,
      maxBackupSizePerMachine: PACKAGE_LIMITS.perMachineDefaultMb,
    });
    expect(
      packageEditForm({ name: 'G', maxBackupSizePerMachineInMbs: null, packageQuotaSizeInBytes: MB })
        .limitBackupSizePerMachine,
    ).toBe(false);
    const form = { name: 'Gold', limitBackupSizePerMachine: false, maxBackupSizePerMachine: 300 };
    expect(onPerMachineLimitToggled(form, true).maxBackupSizePerMachine).toBe(10);
    expect(onPerMachineLimitToggled(form, false).maxBackupSizePerMachine).toBe(300);
  });
});

describe('purchase and upgrade (000 §5)', () => {
  it('require a template choice: -1 is none', () => {
    expect(packagePurchaseSchema.safeParse({ packageTemplateId: NO_TEMPLATE_CHOSEN }).error?.issues[0]).toMatchObject({
      path: ['packageTemplateId'],
      message: 'Must choose a backup package',
    });
    expect(packagePurchaseSchema.parse({ packageTemplateId: '4' })).toEqual({ packageTemplateId: 4 });
    expect(packageUpgradeSchema.safeParse({ newPackageTemplateId: -1 }).error?.issues[0]).toMatchObject({
      path: ['newPackageTemplateId'],
      message: 'Must choose a backup package',
    });
    expect(packageUpgradeSchema.parse({ newPackageTemplateId: 2 })).toEqual({ newPackageTemplateId: 2 });
  });
});

describe('request approval (000 §5, §7)', () => {
  it('new signups and additional packages require a storage item; change requests send nothing', () => {
    expect(requestNeedsStorageItem('NEW_SIGNUP')).toBe(true);
    expect(requestNeedsStorageItem('ADDITIONAL_PACKAGE')).toBe(true);
    expect(requestNeedsStorageItem('CHANGE_PACKAGE')).toBe(false);
    for (const type of ['NEW_SIGNUP', 'ADDITIONAL_PACKAGE'] as const) {
      expect(requestApprovalSchema(type).safeParse({ storageItemId: -1 }).error?.issues[0]).toMatchObject({
        path: ['storageItemId'],
        message: 'Storage item is required',
      });
      expect(requestApprovalSchema(type).parse({ storageItemId: 9 })).toEqual({ storageItemId: 9 });
    }
    expect(requestApprovalSchema('CHANGE_PACKAGE').parse({ storageItemId: 9 })).toEqual({});
  });
});
