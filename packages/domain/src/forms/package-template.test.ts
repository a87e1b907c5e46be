import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messagesByField } from './fields.js';
import {
  onLimitMachinesToggled,
  PACKAGE_TEMPLATE_DEFAULTS,
  packageTemplateAddSchema,
  packageTemplateEditSchema,
} from './package-template.js';

const errors = (input: unknown) => messagesByField(packageTemplateAddSchema.safeParse(input).error?.issues ?? []);

describe('add package template (000 §5)', () => {
  it('000 §5: the defaults are valid and send the ticked limit of 10', () => {
    expect(PACKAGE_TEMPLATE_DEFAULTS).toEqual({
      name: '',
      storageQuota: 10,
      storageQuotaUnit: 'GB',
      limitNumberOfMachines: true,
      noOfMachinesLimit: 10,
      resellersOnly: false,
    });
    expect(packageTemplateAddSchema.parse({ ...PACKAGE_TEMPLATE_DEFAULTS, name: 'Gold' })).toEqual({
      name: 'Gold',
      storageQuota: 10,
      storageQuotaUnit: 'GB',
      noOfMachinesLimit: 10,
      resellersOnly: false,
    });
  });

  it("'For resellers only' (ours): optional, absent for every customer, ticked or 'true' for resellers only", () => {
    const { resellersOnly: _absent, ...withoutAudience } = PACKAGE_TEMPLATE_DEFAULTS;
    const add = (input: Record<string, unknown>) => packageTemplateAddSchema.parse({ ...input, name: 'Gold' });
    expect(add(withoutAudience).resellersOnly).toBe(false);
    expect(add({ ...withoutAudience, resellersOnly: true }).resellersOnly).toBe(true);
    expect(add({ ...withoutAudience, resellersOnly: 'true' }).resellersOnly).toBe(true);
    expect(errors({ ...withoutAudience, name: 'Gold', resellersOnly: 'yes' })).toHaveProperty('resellersOnly');
    // An edit without it keeps the template's audience.
    expect(packageTemplateEditSchema.parse({ name: 'Gold' })).toEqual({ name: 'Gold' });
    expect(packageTemplateEditSchema.parse({ name: 'Gold', resellersOnly: true })).toEqual({
      name: 'Gold',
      resellersOnly: true,
    });
  });

  it("000 §5: name required, max 100, labelled 'package template name'", () => {
    expect(errors({ ...PACKAGE_TEMPLATE_DEFAULTS, name: '  ' })).toEqual({ name: 'package template name is required' });
    expect(errors({ ...PACKAGE_TEMPLATE_DEFAULTS, name: 'x'.repeat(101) })).toEqual({
      name: 'package template name must be at most 100 characters',
    });
    expect(packageTemplateAddSchema.safeParse({ ...PACKAGE_TEMPLATE_DEFAULTS, name: 'x'.repeat(100) }).success).toBe(
      true,
    );
  });

  it('000 §5: storageQuota required, at most 1,024,000,000,000; unit MB, GB, TB or PB', () => {
    const base = { ...PACKAGE_TEMPLATE_DEFAULTS, name: 'Gold' };
    expect(errors({ ...base, storageQuota: '' })).toEqual({ storageQuota: 'Storage quota is required' });
    expect(errors({ ...base, storageQuota: 1_024_000_000_001 })).toEqual({
      storageQuota: 'Storage quota must be at most 1,024,000,000,000',
    });
    expect(errors({ ...base, storageQuota: 0 })).toEqual({ storageQuota: 'Storage quota must be at least 1' });
    expect(packageTemplateAddSchema.parse({ ...base, storageQuota: '1024000000000' }).storageQuota).toBe(
      1_024_000_000_000,
    );
    expect(errors({ ...base, storageQuotaUnit: 'EB' })).toEqual({
      storageQuotaUnit: 'Storage quota unit is not valid',
    });
    for (const unit of ['MB', 'GB', 'TB', 'PB']) {
      expect(packageTemplateAddSchema.parse({ ...base, storageQuotaUnit: unit }).storageQuotaUnit).toBe(unit);
    }
  });

  it('000 §5: ticked, the machine limit is required and 1 to 100,000, on noOfMachinesLimit', () => {
    const base = { ...PACKAGE_TEMPLATE_DEFAULTS, name: 'Gold' };
    expect(errors({ ...base, noOfMachinesLimit: '' })).toEqual({ noOfMachinesLimit: 'Number of machines is required' });
    expect(errors({ ...base, noOfMachinesLimit: 0 })).toEqual({
      noOfMachinesLimit: 'Number of machines must be at least 1',
    });
    expect(errors({ ...base, noOfMachinesLimit: 100_001 })).toEqual({
      noOfMachinesLimit: 'Number of machines must be at most 100,000',
    });
    expect(packageTemplateAddSchema.parse({ ...base, noOfMachinesLimit: '100000' }).noOfMachinesLimit).toBe(100_000);
  });

  it('000 §5: unticked sends 0 whatever the number holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), (limit) => {
        const out = packageTemplateAddSchema.parse({
          ...PACKAGE_TEMPLATE_DEFAULTS,
          name: 'Gold',
          limitNumberOfMachines: false,
          noOfMachinesLimit: limit,
        });
        expect(out.noOfMachinesLimit).toBe(0);
      }),
    );
  });

  it('000 §7: the server reads the payload without the checkbox: 0 unlimited, else 1 to 100,000', () => {
    const payload = { name: 'Gold', storageQuota: 5, storageQuotaUnit: 'TB' };
    expect(packageTemplateAddSchema.parse({ ...payload, noOfMachinesLimit: 0 }).noOfMachinesLimit).toBe(0);
    expect(packageTemplateAddSchema.parse({ ...payload, noOfMachinesLimit: 7 }).noOfMachinesLimit).toBe(7);
    expect(errors({ ...payload, noOfMachinesLimit: -3 })).toEqual({
      noOfMachinesLimit: 'Number of machines must be at least 1',
    });
  });

  it('shows every field error at once', () => {
    expect(errors({ name: '', storageQuota: 'x', storageQuotaUnit: 'GB', noOfMachinesLimit: '' })).toEqual({
      name: 'package template name is required',
      storageQuota: 'Storage quota is not valid',
      noOfMachinesLimit: 'Number of machines is required',
    });
  });

  it('000 §5: ticking sets 10, unticking 0', () => {
    const off = onLimitMachinesToggled(PACKAGE_TEMPLATE_DEFAULTS, false);
    expect(off).toMatchObject({ limitNumberOfMachines: false, noOfMachinesLimit: 0 });
    expect(onLimitMachinesToggled(off, true)).toMatchObject({ limitNumberOfMachines: true, noOfMachinesLimit: 10 });
  });
});

describe('edit package template (000 §5)', () => {
  it('takes only the name, required, max 100', () => {
    expect(packageTemplateEditSchema.parse({ name: ' Gold ', storageQuota: 3 })).toEqual({ name: 'Gold' });
    expect(messagesByField(packageTemplateEditSchema.safeParse({ name: '' }).error?.issues ?? [])).toEqual({
      name: 'package template name is required',
    });
  });
});
