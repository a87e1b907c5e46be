import {
  contrastRatio,
  contrastText,
  nearestPassingColour,
  normalHex,
  rgbOf,
  WCAG_AA_TEXT_CONTRAST,
} from './contrast.js';
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
 * The text colour of a button of this hex colour: white or dark, whichever contrasts more (issue 31: the text must
 * read, WCAG AA's 4.5:1, not only the button stand out).
 */
export function readableTextOn(hex: string): '#212529' | '#ffffff' {
  return contrastRatio(hex, '#ffffff') >= contrastRatio(hex, BODY_TEXT) ? '#ffffff' : BODY_TEXT;
}

/** Bootstrap's body text and link colours: the texts the page's backgrounds carry (links follow a brand's). */
const BODY_TEXT = '#212529';
const LINK_TEXT = '#0d6efd';
/** Bootstrap's primary buttons keep white text; a brand sets only their colour. */
const PRIMARY_BUTTON_TEXT = '#ffffff';

/** The look-and-feel form's seven colours (000 §3). */
export const BRAND_COLOUR_FIELDS = [
  'appHeaderColour',
  'appHeaderTextColour',
  'appBackgroundColour',
  'functionalBackgroundColour',
  'functionalButtonColour',
  'appEnabledButtonColour',
  'appDisabledButtonColour',
] as const;
export type BrandColourField = (typeof BRAND_COLOUR_FIELDS)[number];

export interface ContrastWarning {
  /** The lowest contrast of the field's colour with a text it carries (or, for the header text, with the header). */
  ratio: number;
  /** The nearest colour for the field that passes. */
  suggestion: string;
  message: string;
}

export const CONTRAST_TEXTS = {
  warning: (ratio: string, suggestion: string) =>
    `Text on this colour has a contrast of ${ratio}, below the ${WCAG_AA_TEXT_CONTRAST}:1 WCAG AA asks for. Suggested: ${suggestion}.`,
  takeSuggestion: (suggestion: string) => `Use ${suggestion}`,
  previewTitle: 'Preview',
  previewFunctionalButton: 'Cancel',
  previewDisabledButton: 'Unavailable',
  previewLink: 'A link',
  previewText: 'Text on the page, as your customers see it.',
} as const;

function warningFor(colour: string, texts: readonly string[]): ContrastWarning | null {
  const ratio = Math.min(...texts.map((text) => contrastRatio(colour, text)));
  if (ratio >= WCAG_AA_TEXT_CONTRAST) return null;
  const suggestion = nearestPassingColour(colour, texts);
  return { ratio, suggestion, message: CONTRAST_TEXTS.warning(contrastText(ratio), suggestion) };
}

/**
 * The field warnings of a brand's colours (issue 31): each colour whose text would fail WCAG AA (4.5:1 for normal
 * text), with the nearest colour that passes. Blank or unreadable colours are the defaults. The header text is
 * checked against the header; the backgrounds against the body text on them (links follow them:
 * brandColourVariables); the buttons against their
 * text. The disabled button colour is not checked: WCAG exempts inactive controls.
 */
export function brandContrastWarnings(
  colours: Partial<Record<BrandColourField, string | null | undefined>>,
): Partial<Record<BrandColourField, ContrastWarning>> {
  const colour = (value: string | null | undefined, fallback: string) =>
    normalHex(isBrandColour(value) ? value : fallback);
  const header = colour(colours.appHeaderColour, DEFAULT_COLOURS.header);
  const functionalButton = colour(colours.functionalButtonColour, DEFAULT_COLOURS.functionalButton);
  const checks: [BrandColourField, ContrastWarning | null][] = [
    ['appHeaderTextColour', warningFor(colour(colours.appHeaderTextColour, DEFAULT_COLOURS.headerText), [header])],
    ['appBackgroundColour', warningFor(colour(colours.appBackgroundColour, DEFAULT_COLOURS.background), [BODY_TEXT])],
    ['functionalBackgroundColour', warningFor(colour(colours.functionalBackgroundColour, '#ffffff'), [BODY_TEXT])],
    ['functionalButtonColour', warningFor(functionalButton, [readableTextOn(functionalButton)])],
    ['appEnabledButtonColour', warningFor(colour(colours.appEnabledButtonColour, LINK_TEXT), [PRIMARY_BUTTON_TEXT])],
  ];
  return Object.fromEntries(checks.filter(([, warning]) => warning !== null));
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
  // Links on a brand's tinted page and surfaces: Bootstrap's blue darkened as little as it must be to read on both.
  if (isBrandColour(branding?.appBackgroundColour) || isBrandColour(branding?.functionalBackgroundColour)) {
    const link = nearestPassingColour(LINK_TEXT, [
      colour(branding?.appBackgroundColour, DEFAULT_COLOURS.background),
      colour(branding?.functionalBackgroundColour, DEFAULT_COLOURS.background),
    ]);
    variables['--bs-link-color'] = link;
    variables['--bs-link-color-rgb'] = rgbOf(link).join(', ');
  }
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
