import { describe, expect, it } from 'vitest';
import { errorsOf } from '../testing/form-errors.js';
import {
  IMAGE_ACCEPT,
  isAcceptedImage,
  mayEditCustomUrl,
  resellerAccountSettingsSchema,
  resellerEmailSettingsSchema,
  resellerLookAndFeelSettingsSchema,
} from './reseller-settings.js';

const account = {
  brandName: 'Acme Backup',
  customUrl: 'backup.acme.com',
  mainSiteLink: 'https://acme.com',
  termsAndConditionsLink: 'https://acme.com/terms',
  supportEmailAddress: 'support@acme.com',
  supportPhoneNumber: '+27 21 555 0100',
};

const email = {
  emailHost: 'smtp.acme.com',
  emailPort: 587,
  emailUsername: 'mailer',
  emailPassword: ' secret ',
  sendFromEmailAddress: 'no-reply@acme.com',
};

describe('reseller account settings (000 §5, 002 §5.9)', () => {
  const provider = resellerAccountSettingsSchema('ROLE_BOLT_ADMIN_USER');
  const reseller = resellerAccountSettingsSchema('ROLE_CUSTOMER_SUPER_ADMIN_USER');

  it('requires every text, on its field', () => {
    const blank = Object.fromEntries(Object.keys(account).map((k) => [k, '']));
    expect(errorsOf(provider.safeParse(blank))).toEqual({
      brandName: 'Brand name is required',
      customUrl: 'Custom URL is required',
      mainSiteLink: 'Main site link is required',
      termsAndConditionsLink: 'Terms and conditions link is required',
      supportEmailAddress: 'Support email address is required',
      supportPhoneNumber: 'Support phone number is required',
    });
  });

  // 000 §5: texts at most 100, the support e-mail a valid address of at most 50, the phone number at most 50;
  // ours: links are absolute http(s) URLs, the custom URL a host name or such a URL.
  it.each<[string, Record<string, string>, string]>([
    ['brandName', { brandName: 'x'.repeat(101) }, 'Brand name must be at most 100 characters'],
    ['supportEmailAddress', { supportEmailAddress: 'nope' }, 'Support email address must be a valid email'],
    [
      'supportEmailAddress',
      { supportEmailAddress: `${'a'.repeat(45)}@b.com` },
      'Support email address must be at most 50 characters',
    ],
    [
      'supportPhoneNumber',
      { supportPhoneNumber: '1'.repeat(51) },
      'Support phone number must be at most 50 characters',
    ],
    ['mainSiteLink', { mainSiteLink: 'javascript:alert(1)' }, 'Main site link is not valid'],
    ['customUrl', { customUrl: 'not a host' }, 'Custom URL is not valid'],
  ])('%s: %j gets %s', (field, change, message) => {
    expect(errorsOf(provider.safeParse({ ...account, ...change }))).toEqual({ [field]: message });
  });

  it('ours: the custom URL may be an absolute https URL', () => {
    expect(provider.parse({ ...account, customUrl: 'https://backup.acme.com' }).customUrl).toBe(
      'https://backup.acme.com',
    );
  });

  it('customUrl (and resellerEnabled) editable only by the provider admin: dropped for other roles', () => {
    expect(mayEditCustomUrl('ROLE_BOLT_ADMIN_USER')).toBe(true);
    expect(mayEditCustomUrl('ROLE_CUSTOMER_SUPER_ADMIN_USER')).toBe(false);
    expect(provider.parse({ ...account, resellerEnabled: 'true' })).toEqual({ ...account, resellerEnabled: true });
    const own = reseller.parse({ ...account, customUrl: 'evil.example.com', resellerEnabled: true });
    expect(own).not.toHaveProperty('customUrl');
    expect(own).not.toHaveProperty('resellerEnabled');
    expect(reseller.safeParse({ ...account, customUrl: undefined }).success).toBe(true);
  });
});

describe('look and feel settings (000 §5, 002 §5.9)', () => {
  it('takes hex colours, blank for the default', () => {
    const out = resellerLookAndFeelSettingsSchema.parse({
      appHeaderColour: '#F8F9FA',
      appBackgroundColour: '#fff',
      appHeaderTextColour: '',
    });
    expect(out).toMatchObject({
      appHeaderColour: '#F8F9FA',
      appBackgroundColour: '#fff',
      appHeaderTextColour: null,
      functionalButtonColour: null,
    });
    expect(
      errorsOf(
        resellerLookAndFeelSettingsSchema.safeParse({ appHeaderColour: 'red', functionalButtonColour: '#12345' }),
      ),
    ).toEqual({
      appHeaderColour: 'Header colour is not valid',
      functionalButtonColour: 'Functional button colour is not valid',
    });
  });

  it('logo: jpeg or png; favicon: jpeg, png or icon; by MIME type and extension', () => {
    const png = { name: 'logo.png', type: 'image/png' };
    const ico = { name: 'favicon.ico', type: 'image/x-icon' };
    const gif = { name: 'logo.gif', type: 'image/gif' };
    const disguised = { name: 'logo.png', type: 'image/svg+xml' };
    expect(resellerLookAndFeelSettingsSchema.parse({ logo: [png], favicon: ico })).toMatchObject({
      logo: png,
      favicon: ico,
    });
    expect(errorsOf(resellerLookAndFeelSettingsSchema.safeParse({ logo: ico, favicon: gif }))).toEqual({
      logo: 'Logo must be a jpeg or png image',
      favicon: 'Favicon must be a jpeg, png or icon image',
    });
    expect(errorsOf(resellerLookAndFeelSettingsSchema.safeParse({ logo: disguised }))).toEqual({
      logo: 'Logo must be a jpeg or png image',
    });
    expect(resellerLookAndFeelSettingsSchema.parse({})).toMatchObject({ logo: null, favicon: null });
    expect(isAcceptedImage('favicon', { name: 'f.jpeg', type: 'image/jpeg' })).toBe(true);
    expect(isAcceptedImage('logo', ico)).toBe(false);
    expect(IMAGE_ACCEPT.logo).toBe('.jpg,.jpeg,.png,image/jpeg,image/png');
  });
});

describe('e-mail settings (000 §5, 002 §5.9)', () => {
  it('host, username, password required, max 80; port required, at least 1; sender valid, max 50', () => {
    expect(resellerEmailSettingsSchema.parse({ ...email, emailPort: '25' })).toEqual({ ...email, emailPort: 25 });
    expect(
      errorsOf(
        resellerEmailSettingsSchema.safeParse({
          emailHost: 'h'.repeat(81),
          emailPort: 0,
          emailUsername: '',
          emailPassword: '',
          sendFromEmailAddress: 'x@',
        }),
      ),
    ).toEqual({
      emailHost: 'Email host must be at most 80 characters',
      emailPort: 'Email port must be at least 1',
      emailUsername: 'Email username is required',
      emailPassword: 'Email password is required',
      sendFromEmailAddress: 'Send from email address must be a valid email',
    });
    expect(errorsOf(resellerEmailSettingsSchema.safeParse({ ...email, emailPort: '' }))).toEqual({
      emailPort: 'Email port is required',
    });
    expect(errorsOf(resellerEmailSettingsSchema.safeParse({ ...email, emailPassword: 'p'.repeat(81) }))).toEqual({
      emailPassword: 'Email password must be at most 80 characters',
    });
  });
});
