import { describe, expect, it } from 'vitest';
import { errorsOf } from '../testing/form-errors.js';
import {
  billingServerChangeSchema,
  customerAccountEditSchema,
  customerPluginSettingsSchema,
  makeResellerSelectSchema,
  showsProviderMachineControl,
  volumeSnapshotsEditable,
  volumeSnapshotsSchema,
} from './customer.js';

describe('edit customer account (001 §5)', () => {
  it('companyName max 50, the super admin user required', () => {
    expect(errorsOf(customerAccountEditSchema.safeParse({ companyName: 'c'.repeat(51), userIdToBeAdmin: 0 }))).toEqual({
      companyName: 'Company name must be at most 50 characters',
      userIdToBeAdmin: 'Super admin user is required',
    });
    expect(
      customerAccountEditSchema.parse({ companyName: ' Acme ', userIdToBeAdmin: '7', cpanelPluginEnabled: true }),
    ).toEqual({
      companyName: 'Acme',
      userIdToBeAdmin: 7,
      cpanelPluginEnabled: true,
    });
  });

  it('001 §6: the allow-provider-control flag is optional, shown only off the main brand', () => {
    expect(customerAccountEditSchema.parse({ userIdToBeAdmin: 7, allowProviderMachineControl: 'false' })).toMatchObject(
      {
        companyName: '',
        allowProviderMachineControl: false,
      },
    );
    expect(showsProviderMachineControl(true)).toBe(false);
    expect(showsProviderMachineControl(false)).toBe(true);
  });
});

describe('customer plugin settings (002 §7.3)', () => {
  it('sends cpanelPluginEnabled', () => {
    expect(customerPluginSettingsSchema.parse({ cpanelPluginEnabled: 'true' })).toEqual({ cpanelPluginEnabled: true });
    expect(customerPluginSettingsSchema.safeParse({}).success).toBe(false);
  });
});

describe('billing server change (002 §5.4, §9)', () => {
  it('requires a server and defaults the payment method to banktransfer', () => {
    const schema = billingServerChangeSchema(null);
    expect(schema.parse({ whmcsServerId: '2' })).toEqual({ whmcsServerId: 2, paymentMethod: 'banktransfer' });
    expect(schema.parse({ whmcsServerId: 2, paymentMethod: 'stripe' }).paymentMethod).toBe('stripe');
    expect(errorsOf(schema.safeParse({ whmcsServerId: -1, paymentMethod: 'paypal' }))).toEqual({
      whmcsServerId: 'Billing server is required',
      paymentMethod: 'Payment method is not valid',
    });
  });

  it("ours: the customer's current server is refused", () => {
    expect(errorsOf(billingServerChangeSchema(3).safeParse({ whmcsServerId: 3 }))).toEqual({
      whmcsServerId: 'Must choose a billing server other than the current one',
    });
    expect(billingServerChangeSchema(3).safeParse({ whmcsServerId: 4 }).success).toBe(true);
  });
});

describe('volume snapshots (002 §5.5)', () => {
  it('can be turned on only for Windows machines', () => {
    expect(volumeSnapshotsEditable('WINDOWS')).toBe(true);
    expect(volumeSnapshotsSchema('WINDOWS').parse({ volumeSnapshotsEnabled: true })).toEqual({
      volumeSnapshotsEnabled: true,
    });
    expect(errorsOf(volumeSnapshotsSchema('LINUX').safeParse({ volumeSnapshotsEnabled: true }))).toEqual({
      volumeSnapshotsEnabled: 'Volume snapshots can be enabled only for Windows machines',
    });
    expect(volumeSnapshotsSchema('MAC').parse({ volumeSnapshotsEnabled: false })).toEqual({
      volumeSnapshotsEnabled: false,
    });
  });
});

describe('select new reseller (002 §4.5)', () => {
  it('requires a customer', () => {
    expect(errorsOf(makeResellerSelectSchema.safeParse({ customerId: 0 }))).toEqual({
      customerId: 'Customer is required',
    });
    expect(makeResellerSelectSchema.parse({ customerId: 5 })).toEqual({ customerId: 5 });
  });
});
