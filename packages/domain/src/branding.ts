import type { Branding } from './initial-data.js';
import { APP_TITLE, DEFAULT_COLOURS } from './layout.js';
import { imageUrl } from './paths.js';
import { PAGES } from './routes.js';

/**
 * A colour as hex, #rgb or #rrggbb: the only form a brand colour takes (the look-and-feel form's rule; the
 * shell puts it into CSS variables). Here, not in forms/, so the first page reads it without zod.
 */
export const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * The brand names a page shows where the product names itself (002 §1): the reseller's brand name, else
 * the provider's own product name; a reseller without a brand name gets the second default. The
 * specification does not quote them; these are ours.
 */
export const DEFAULT_BRAND_NAMES = {
  provider: APP_TITLE,
  reseller: 'Cloud Backup',
} as const;

/** The provider's favicon, shown where no reseller favicon applies. */
export const DEFAULT_FAVICON = '/img/favicon.png';

export function brandNameOf(branding: Branding | null): string {
  if (!branding) return DEFAULT_BRAND_NAMES.provider;
  return branding.brandName?.trim() || DEFAULT_BRAND_NAMES.reseller;
}

/** The document's icon: the reseller's favicon from /public/downloads/img/, else the provider's. */
export function brandFaviconUrl(branding: Branding | null): string {
  return branding?.favicon ? imageUrl(branding.favicon) : DEFAULT_FAVICON;
}

/** Whether a stored colour may reach the page: hex only, so nothing but a colour ever lands in a CSS variable. */
export const isBrandColour = (value: string | null | undefined): value is string =>
  typeof value === 'string' && HEX_COLOUR.test(value);

/**
 * The text colour of a button of this hex colour: white while it keeps WCAG's 3:1 for interface components
 * (as brand buttons usually carry white), else dark.
 */
export function readableTextOn(hex: string): '#212529' | '#ffffff' {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const channel = (i: number) => {
    const v = Number.parseInt(full.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05) >= 3 ? '#ffffff' : '#212529';
}

/**
 * The CSS custom properties the shell and the sign-in pages set (000 §2, §9; 002 §2.2): the brand's colours
 * over the defaults (the functional button #b1b1b1, with text that reads on it). The primary button colours are
 * set only when the brand gives them, so Bootstrap's own apply otherwise; a brand's disabled colour is shown as
 * given, not faded.
 */
export function brandColourVariables(branding: Branding | null): Record<string, string> {
  const colour = (value: string | null | undefined, fallback: string) => (isBrandColour(value) ? value : fallback);
  const variables: Record<string, string> = {
    '--portal-header-bg': colour(branding?.appHeaderColour, DEFAULT_COLOURS.header),
    '--portal-header-text': colour(branding?.appHeaderTextColour, DEFAULT_COLOURS.headerText),
    '--portal-bg': colour(branding?.appBackgroundColour, DEFAULT_COLOURS.background),
  };
  const functionalButton = colour(branding?.functionalButtonColour, DEFAULT_COLOURS.functionalButton);
  variables['--portal-functional-button'] = functionalButton;
  variables['--portal-functional-button-text'] = readableTextOn(functionalButton);
  const optional = {
    '--portal-functional-bg': branding?.functionalBackgroundColour,
    '--portal-button-enabled': branding?.appEnabledButtonColour,
    '--portal-button-disabled': branding?.appDisabledButtonColour,
  };
  for (const [name, value] of Object.entries(optional)) if (isBrandColour(value)) variables[name] = value;
  if (isBrandColour(branding?.appDisabledButtonColour)) variables['--portal-button-disabled-opacity'] = '1';
  return variables;
}

/**
 * The downloads and pricing links (000 §1, §6, §9): a reseller's customers get the reseller's downloads
 * (the agent's downloads on the manual page of the reseller's own portal address) and pricing from its
 * main site link; direct customers the provider's downloads (this portal's manual page) and pricing from
 * the provider's public site, when one is configured.
 */
export function brandLinks(
  branding: Branding | null,
  providerSiteUrl: string | null,
): { downloads: string; pricing: string | null } {
  if (!branding) return { downloads: PAGES.manual, pricing: providerSiteUrl };
  return { downloads: `${branding.portalOrigin ?? ''}${PAGES.manual}`, pricing: branding.mainSiteLink };
}

/** The class of the sign-in pages' wrapper (000 §2): a reseller's or the provider's styling. */
export const loginWrapperClass = (branding: Branding | null) =>
  `login-wrapper ${branding ? 'reseller-styling' : 'provider-styling'}`;
