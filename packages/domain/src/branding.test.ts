import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BRAND_COLOUR_FIELDS,
  type BrandColourField,
  brandColourVariables,
  brandContrastWarnings,
  brandFaviconUrl,
  brandLinks,
  brandNameOf,
  DEFAULT_BRAND_NAMES,
  DEFAULT_FAVICON,
  loginWrapperClass,
  readableTextOn,
} from './branding.js';
import { contrastRatio } from './contrast.js';
import { DEFAULT_COLOURS } from './layout.js';
import { testBranding } from './testing/branding.js';

const reseller = testBranding;

describe('the brand name where the product names itself (002 §1)', () => {
  it("is the reseller's, else the second default for a reseller without one, else the provider's", () => {
    expect(brandNameOf(reseller())).toBe('Northwind Cloud Backup');
    expect(brandNameOf(reseller({ brandName: null }))).toBe(DEFAULT_BRAND_NAMES.reseller);
    expect(brandNameOf(reseller({ brandName: '  ' }))).toBe(DEFAULT_BRAND_NAMES.reseller);
    expect(brandNameOf(null)).toBe(DEFAULT_BRAND_NAMES.provider);
    expect(DEFAULT_BRAND_NAMES.reseller).not.toBe(DEFAULT_BRAND_NAMES.provider);
  });
});

describe('the favicon', () => {
  it("is the reseller's image when set, else the provider's", () => {
    expect(brandFaviconUrl(reseller())).toBe('/public/downloads/img/northwind-favicon.png');
    expect(brandFaviconUrl(reseller({ favicon: null }))).toBe(DEFAULT_FAVICON);
    expect(brandFaviconUrl(null)).toBe(DEFAULT_FAVICON);
  });
});

describe('the colour variables (000 §9, 002 §2.2)', () => {
  it('are the defaults for the provider, with no button overrides', () => {
    expect(brandColourVariables(null)).toEqual({
      '--portal-header-bg': DEFAULT_COLOURS.header,
      '--portal-header-text': DEFAULT_COLOURS.headerText,
      '--portal-bg': DEFAULT_COLOURS.background,
      '--portal-functional-button': DEFAULT_COLOURS.functionalButton,
      '--portal-functional-button-text': '#212529',
    });
  });

  it('give the functional button text that reads on it', () => {
    expect(readableTextOn('#b1b1b1')).toBe('#212529');
    expect(readableTextOn('#2a7de1')).toBe('#ffffff');
    expect(readableTextOn('#fff')).toBe('#212529');
    expect(readableTextOn('#000')).toBe('#ffffff');
  });

  it("carry every colour of a reseller's brand, the disabled colour unfaded", () => {
    expect(brandColourVariables(reseller())).toEqual({
      '--portal-header-bg': '#1b3a5c',
      '--portal-header-text': '#ffffff',
      '--portal-bg': '#f3f6fa',
      '--portal-functional-button': '#2a7de1',
      '--portal-functional-button-text': '#ffffff',
      '--portal-functional-bg': '#e8eef5',
      '--portal-button-enabled': '#2a7de1',
      '--portal-button-disabled': '#a7b4c2',
      '--portal-button-disabled-opacity': '1',
      // Bootstrap's link blue, darkened to read on both tinted backgrounds (issue 31).
      '--bs-link-color': '#0261ec',
      '--bs-link-color-rgb': '2, 97, 236',
    });
    expect(contrastRatio('#0261ec', '#e8eef5')).toBeGreaterThanOrEqual(4.5);
    expect(
      brandColourVariables(reseller({ appBackgroundColour: null, functionalBackgroundColour: null })),
    ).not.toHaveProperty('--bs-link-color');
  });

  it('never carry a value that is not a hex colour', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BRAND_COLOUR_FIELDS), fc.string(), (key, value) => {
        const variables = brandColourVariables(reseller({ [key]: value }));
        for (const [name, v] of Object.entries(variables)) {
          if (name === '--portal-button-disabled-opacity') expect(v).toBe('1');
          else if (name === '--bs-link-color-rgb') expect(v).toMatch(/^\d{1,3}, \d{1,3}, \d{1,3}$/);
          else expect(v).toMatch(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
        }
      }),
    );
    expect(brandColourVariables(reseller({ appBackgroundColour: 'url(https://tracker.test/x)' }))['--portal-bg']).toBe(
      DEFAULT_COLOURS.background,
    );
  });
});

describe('downloads and pricing links (000 §1, §6, §9)', () => {
  it("give a reseller's customers the reseller's portal downloads and main site, direct customers the provider's", () => {
    expect(brandLinks(reseller(), 'https://provider.test')).toEqual({
      downloads: 'https://backup.northwind.test/manual',
      pricing: 'https://www.northwind.test',
    });
    expect(brandLinks(reseller({ portalOrigin: null, mainSiteLink: null }), 'https://provider.test')).toEqual({
      downloads: '/manual',
      pricing: null,
    });
    expect(brandLinks(null, 'https://provider.test')).toEqual({
      downloads: '/manual',
      pricing: 'https://provider.test',
    });
    expect(brandLinks(null, null).pricing).toBeNull();
  });
});

describe('the login wrapper (000 §2)', () => {
  it("takes a reseller's or the provider's styling class", () => {
    expect(loginWrapperClass(reseller())).toBe('login-wrapper reseller-styling');
    expect(loginWrapperClass(null)).toBe('login-wrapper provider-styling');
  });
});

describe('contrast warnings of the look-and-feel form (issue 31)', () => {
  it('warn on each colour whose text fails WCAG AA, with a passing suggestion', () => {
    const warnings = brandContrastWarnings({
      appHeaderColour: '#1b3a5c',
      appHeaderTextColour: '#2a4a6c',
      appBackgroundColour: '#ffffff',
      functionalBackgroundColour: '#505a64',
      functionalButtonColour: '#777777',
      appEnabledButtonColour: '#2a7de1',
      appDisabledButtonColour: '#eeeeee',
    });
    expect(Object.keys(warnings).sort()).toEqual([
      'appEnabledButtonColour',
      'appHeaderTextColour',
      'functionalBackgroundColour',
      'functionalButtonColour',
    ]);
    expect(warnings.appEnabledButtonColour).toEqual({
      ratio: contrastRatio('#2a7de1', '#ffffff'),
      suggestion: '#1f75dd',
      message: 'Text on this colour has a contrast of 4.10:1, below the 4.5:1 WCAG AA asks for. Suggested: #1f75dd.',
    });
    expect(contrastRatio(warnings.appHeaderTextColour?.suggestion ?? '', '#1b3a5c')).toBeGreaterThanOrEqual(4.5);
  });

  it('take blank colours as the defaults, which pass', () => {
    expect(brandContrastWarnings({})).toEqual({});
    expect(brandContrastWarnings({ appHeaderColour: '', appEnabledButtonColour: 'nonsense' })).toEqual({});
  });

  it('property: applying every suggestion leaves no warning', () => {
    const hex = fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
      .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`);
    const fields = BRAND_COLOUR_FIELDS;
    fc.assert(
      fc.property(fc.tuple(...fields.map(() => hex)), (values) => {
        const colours: Partial<Record<BrandColourField, string>> = Object.fromEntries(
          fields.map((field, i) => [field, values[i] ?? '#ffffff']),
        );
        const warnings = brandContrastWarnings(colours);
        for (const [field, warning] of Object.entries(warnings))
          colours[field as BrandColourField] = warning.suggestion;
        expect(brandContrastWarnings(colours)).toEqual({});
      }),
    );
  });
});
