import { type Branding, isBrandColour, isWebUrl, resellerPortalOrigin } from '@portal/domain';
import type { BrandRecord } from './repo.js';

const colour = (value: string | null) => (isBrandColour(value) ? value : null);

/**
 * The brand a page carries (Branding), field by field: a stored colour that is not hex and a link that is
 * not http(s) are dropped, so a page puts only a colour into its CSS variables and only a web link into an href.
 */
export function presentBranding(record: BrandRecord | null): Branding | null {
  if (!record) return null;
  return {
    brandName: record.brandName,
    logo: record.logo || null,
    favicon: record.favicon || null,
    appHeaderColour: colour(record.appHeaderColour),
    appHeaderTextColour: colour(record.appHeaderTextColour),
    appBackgroundColour: colour(record.appBackgroundColour),
    functionalBackgroundColour: colour(record.functionalBackgroundColour),
    functionalButtonColour: colour(record.functionalButtonColour),
    appEnabledButtonColour: colour(record.appEnabledButtonColour),
    appDisabledButtonColour: colour(record.appDisabledButtonColour),
    mainSiteLink: record.mainSiteLink && isWebUrl(record.mainSiteLink) ? record.mainSiteLink : null,
    portalOrigin: resellerPortalOrigin(record.customUrl),
  };
}
