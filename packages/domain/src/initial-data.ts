import type { Role } from './enums.js';

/**
 * The brand a page shows (000 §1-§3, 002 §1, §2.2): the enabled reseller settings that apply (a reseller's
 * own, else its parent reseller's), null for the provider's own brand. Only what pages show: never the
 * e-mail settings. Colours are hex (HEX_COLOUR) or null for the default; links are absolute http(s) URLs.
 */
export interface Branding {
  brandName: string | null;
  logo: string | null;
  favicon: string | null;
  appHeaderColour: string | null;
  appHeaderTextColour: string | null;
  appBackgroundColour: string | null;
  functionalBackgroundColour: string | null;
  functionalButtonColour: string | null;
  appEnabledButtonColour: string | null;
  appDisabledButtonColour: string | null;
  /** The reseller's main site: where its customers find prices (000 §1, §6). */
  mainSiteLink: string | null;
  /** The reseller's own portal address (resellerPortalOrigin of its customUrl). */
  portalOrigin: string | null;
}

/** The data the served index.html carries for the page to start with (DESIGN §3, 002 §7.8). */
export interface InitialData {
  user: {
    id: number;
    firstName: string;
    surname: string;
    email: string;
    role: Role;
    customerId: number | null;
    companyName: string | null;
    boltCustomer: boolean;
    resellerEnabled: boolean;
    readOnly: boolean;
    unpaidInvoices: number;
  } | null;
  branding: Branding | null;
  /** The provider's public site (PROVIDER_SITE_URL): its pricing and downloads; null when not configured. */
  providerSiteUrl: string | null;
  version: string;
  commitId: string;
  demo: boolean;
  /** The signed-in user must set up two-factor sign-in before anything else (issue 18). */
  mfaEnrolmentRequired?: boolean;
}

/**
 * The response code of a call refused because the user must set up two-factor sign-in first (a requirement that
 * began during their session): the web app then opens the enrolment page.
 */
export const MFA_ENROLMENT_REQUIRED_CODE = 'MFA_ENROLMENT_REQUIRED';

export const CSRF_HEADER_NAME = 'X-CSRF-TOKEN';
export const CSRF_FIELD_NAME = '_csrf';
