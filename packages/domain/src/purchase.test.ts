import { describe, expect, it } from 'vitest';
import { billingInfoQuerySchema } from './forms/billing-server.js';
import { PACKAGE_TEMPLATE_LIMITS } from './forms/package-template.js';
import { invoiceGoToUrl, packageFromTemplate, templateQuotaInMb } from './purchase.js';

describe('the package a purchase makes (000 §6)', () => {
  it('takes the template name (cut to 50), its quota exactly, the whole quota per machine and the machine limit', () => {
    expect(
      packageFromTemplate({ name: 'Basic', storageQuota: 10, storageQuotaUnit: 'GB', noOfMachinesLimit: 5 }),
    ).toEqual({
      name: 'Basic',
      packageQuotaSizeInBytes: 10 * 1024 ** 3,
      maxBackupSizePerMachineInMbs: 10 * 1024,
      noOfMachinesLimit: 5,
    });
    expect(
      packageFromTemplate({ name: 'x'.repeat(100), storageQuota: 1, storageQuotaUnit: 'MB', noOfMachinesLimit: 0 })
        .name,
    ).toHaveLength(50);
  });

  it('caps a quota beyond an exact JavaScript number at the largest one', () => {
    const pkg = packageFromTemplate({
      name: 'Huge',
      storageQuota: PACKAGE_TEMPLATE_LIMITS.storageQuotaMax,
      storageQuotaUnit: 'PB',
      noOfMachinesLimit: 0,
    });
    expect(pkg.packageQuotaSizeInBytes).toBe(Number.MAX_SAFE_INTEGER);
    expect(pkg.maxBackupSizePerMachineInMbs).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 1_048_576));
    // 8 PB is the last quota stored exactly.
    expect(
      packageFromTemplate({ name: 'P', storageQuota: 7, storageQuotaUnit: 'PB', noOfMachinesLimit: 0 }),
    ).toMatchObject({
      packageQuotaSizeInBytes: 7 * 1024 ** 5,
    });
  });

  it('shows a template quota in MB (001 §3)', () => {
    expect(templateQuotaInMb({ storageQuota: 2, storageQuotaUnit: 'TB' })).toBe(2 * 1024 * 1024);
  });
});

describe('paying an invoice (000 §7, 002 §7.2)', () => {
  it("is the billing system's invoice page, a goToUrl GET /billing/info accepts", () => {
    expect(invoiceGoToUrl(42)).toBe('viewinvoice.php?id=42');
    expect(billingInfoQuerySchema.safeParse({ goToUrl: invoiceGoToUrl(42) }).success).toBe(true);
    expect(() => invoiceGoToUrl(0)).toThrow(RangeError);
  });
});
