import { type Branding, DEFAULT_COLOURS } from '@portal/domain';
import type { CSSProperties } from 'react';

/** Reseller colours override the defaults of 000 §9 through CSS variables the stylesheet reads. */
export function brandingStyle(branding: Branding | null): CSSProperties {
  return {
    '--portal-header-bg': branding?.appHeaderColour || DEFAULT_COLOURS.header,
    '--portal-header-text': branding?.appHeaderTextColour || DEFAULT_COLOURS.headerText,
    '--portal-bg': branding?.appBackgroundColour || DEFAULT_COLOURS.background,
    '--portal-functional-button': branding?.functionalButtonColour || DEFAULT_COLOURS.functionalButton,
  } as CSSProperties;
}
