import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_TYPE_MESSAGES,
  IMAGE_UPLOAD_LIMITS,
  imageTooLargeMessage,
  resellerLookAndFeelColoursSchema,
  resellerLookAndFeelSettingsSchema,
} from './forms/reseller-settings.js';
import {
  editableResellerSections,
  hasLookAndFeelMarker,
  LOOK_AND_FEEL_MARKER,
  lookAndFeelRefreshUrl,
  RESELLER_IMAGE_FILE_NAME,
  resellerSettingsPageUrl,
} from './reseller-settings.js';

describe('reseller settings rules (000 §2, §5; issue 17)', () => {
  it('the provider saves the account section only; the reseller all three', () => {
    expect(editableResellerSections('ROLE_BOLT_ADMIN_USER')).toEqual(['reselleraccountsettings']);
    expect(editableResellerSections('ROLE_CUSTOMER_SUPER_ADMIN_USER')).toEqual([
      'reselleraccountsettings',
      'resellerlookandfeelsettings',
      'reselleremailsettings',
    ]);
  });

  it('the look-and-feel marker in the query opens that tab', () => {
    expect(LOOK_AND_FEEL_MARKER).toBe('lookandfeel');
    expect(hasLookAndFeelMarker('?lookandfeel')).toBe(true);
    expect(hasLookAndFeelMarker('?x=1&lookandfeel=')).toBe(true);
    expect(hasLookAndFeelMarker('')).toBe(false);
    expect(hasLookAndFeelMarker('?look=andfeel')).toBe(false);
    expect(lookAndFeelRefreshUrl()).toBe('/admin/reselleradmin?lookandfeel');
    expect(resellerSettingsPageUrl(7)).toBe('/boltadmin/customers/7/resellersettings');
  });

  it('images over the size limit are refused on their field; at the limit they pass', () => {
    const file = (size: number) => ({ name: 'logo.png', type: 'image/png', size });
    const over = resellerLookAndFeelSettingsSchema.safeParse({ logo: file(IMAGE_UPLOAD_LIMITS.maxBytes + 1) });
    expect(over.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['logo', imageTooLargeMessage('logo')],
    ]);
    expect(imageTooLargeMessage('favicon')).toBe('Favicon must be at most 2 MB');
    expect(resellerLookAndFeelSettingsSchema.safeParse({ logo: file(IMAGE_UPLOAD_LIMITS.maxBytes) }).success).toBe(
      true,
    );
    const svg = resellerLookAndFeelSettingsSchema.safeParse({
      favicon: { name: 'f.svg', type: 'image/svg+xml', size: 10 },
    });
    expect(svg.error?.issues[0]?.message).toBe(IMAGE_TYPE_MESSAGES.favicon);
  });

  it('the colours schema (what the server parses) has no image fields', () => {
    expect(Object.keys(resellerLookAndFeelColoursSchema.shape)).not.toContain('logo');
    expect(resellerLookAndFeelColoursSchema.parse({ appHeaderColour: '#ABC' }).appHeaderColour).toBe('#ABC');
  });

  it('stored image names: kind, 32 hex characters, .png; nothing else', () => {
    expect(RESELLER_IMAGE_FILE_NAME.test(`logo-${'a'.repeat(32)}.png`)).toBe(true);
    fc.assert(
      fc.property(fc.string(), (name) => {
        if (RESELLER_IMAGE_FILE_NAME.test(name)) expect(name).toMatch(/^(logo|favicon)-[0-9a-f]{32}\.png$/);
        expect(RESELLER_IMAGE_FILE_NAME.test(`../${name}`)).toBe(false);
      }),
    );
  });
});
