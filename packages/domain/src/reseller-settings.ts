import type { Role } from './enums.js';
import { PAGES } from './routes.js';
import { customerUrl, RESELLER_SETTINGS_SECTIONS, type ResellerSettingsSection } from './urls.js';

/**
 * A reseller's settings as the settings screen reads them (000 §3, 002 §3; the GET is ours, the spec shows
 * only the PUTs). Texts never set are ''; colours and images never set are null (the defaults apply). The
 * e-mail password never leaves the server: `emailPasswordSet` says whether one is stored.
 */
export interface ResellerSettingsView {
  customerId: number;
  companyName: string;
  resellerEnabled: boolean;
  brandName: string;
  customUrl: string;
  mainSiteLink: string;
  termsAndConditionsLink: string;
  supportEmailAddress: string;
  supportPhoneNumber: string;
  /** Stored file names, served from imageUrl(name). */
  logo: string | null;
  favicon: string | null;
  functionalBackgroundColour: string | null;
  functionalButtonColour: string | null;
  appHeaderColour: string | null;
  appHeaderTextColour: string | null;
  appEnabledButtonColour: string | null;
  appDisabledButtonColour: string | null;
  appBackgroundColour: string | null;
  emailHost: string;
  emailPort: number | null;
  emailUsername: string;
  emailPasswordSet: boolean;
  sendFromEmailAddress: string;
  /** The sections the caller may save (the provider: the account section only, 000 §2). */
  editableSections: ResellerSettingsSection[];
  /** Whether the caller may change customUrl and resellerEnabled (000 §5, §6). */
  customUrlEditable: boolean;
}

/**
 * Which sections a role may save (000 §2): a provider admin editing a customer's settings has the Look and
 * Feel and Email tabs disabled, so it saves the account section only; the reseller's super admin saves all three.
 */
export function editableResellerSections(role: Role): ResellerSettingsSection[] {
  return role === 'ROLE_BOLT_ADMIN_USER' ? ['reselleraccountsettings'] : [...RESELLER_SETTINGS_SECTIONS];
}

/**
 * The look-and-feel refresh marker (000 §2): /admin/reselleradmin?lookandfeel opens the Look and Feel tab,
 * so a save that reloads the page to apply the new colours comes back to the same tab.
 */
export const LOOK_AND_FEEL_MARKER = 'lookandfeel';

/** Whether a page's query string (location.search) carries the look-and-feel marker. */
export const hasLookAndFeelMarker = (search: string) => new URLSearchParams(search).has(LOOK_AND_FEEL_MARKER);

/** The file names the server gives stored images: kind, content hash, .png (ours). */
export const RESELLER_IMAGE_FILE_NAME = /^(logo|favicon)-[0-9a-f]{32}\.png$/;

/** The settings screen: the reseller's own (/admin/reselleradmin) or the provider's view of a customer's. */
export const resellerSettingsPageUrl = (customerId: number | null) =>
  customerId === null ? PAGES.resellerSettings : `${customerUrl('provider', customerId)}/resellersettings`;

/** Where the screen goes after look-and-feel settings are saved: reloaded (the new brand applies) on that tab. */
export const lookAndFeelRefreshUrl = () => `${resellerSettingsPageUrl(null)}?${LOOK_AND_FEEL_MARKER}`;
