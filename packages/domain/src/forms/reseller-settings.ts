import { z } from 'zod';
import { HEX_COLOUR } from '../branding.js';
import type { Role } from '../enums.js';
import { fieldNotValid, fieldRequired, fieldTooLong, imageTooLarge } from '../messages.js';
import {
  acceptAttribute,
  checkbox,
  displayText,
  type FileKind,
  fileIsOfKind,
  integerField,
  isHostname,
  isWebUrl,
  optionalUploadField,
  requiredEmail,
  requiredText,
  type UploadedFile,
} from './fields.js';

/** Limits of the reseller settings (000 §5, §9; 002 §5.9). */
export const RESELLER_SETTINGS_LIMITS = {
  accountTextMax: 100,
  supportEmailMax: 50,
  supportPhoneMax: 50,
  emailTextMax: 80,
  sendFromEmailMax: 50,
  emailPortMin: 1,
  /** Ours: the highest TCP port. */
  emailPortMax: 65_535,
} as const;

/** Field labels of the three tabs (ours; the specification names the fields, not their labels). */
export const RESELLER_SETTINGS_LABELS = {
  resellerEnabled: 'Reseller enabled',
  brandName: 'Brand name',
  customUrl: 'Custom URL',
  mainSiteLink: 'Main site link',
  termsAndConditionsLink: 'Terms and conditions link',
  supportEmailAddress: 'Support email address',
  supportPhoneNumber: 'Support phone number',
  logo: 'Logo',
  favicon: 'Favicon',
  functionalBackgroundColour: 'Functional background colour',
  functionalButtonColour: 'Functional button colour',
  appHeaderColour: 'Header colour',
  appHeaderTextColour: 'Header text colour',
  appEnabledButtonColour: 'Enabled button colour',
  appDisabledButtonColour: 'Disabled button colour',
  appBackgroundColour: 'Background colour',
  emailHost: 'Email host',
  emailPort: 'Email port',
  emailUsername: 'Email username',
  emailPassword: 'Email password',
  sendFromEmailAddress: 'Send from email address',
} as const;

const L = RESELLER_SETTINGS_LABELS;
const M = RESELLER_SETTINGS_LIMITS;

/** A link a page renders as an href: an absolute http(s) URL (ours: no javascript: links). */
const webLink = (label: string) =>
  requiredText(label, M.accountTextMax).refine(isWebUrl, { error: fieldNotValid(label) });

/** The reseller's own portal address: a host name or an absolute http(s) URL (ours). */
const customUrlField = requiredText(L.customUrl, M.accountTextMax).refine((v) => isHostname(v) || isWebUrl(v), {
  error: fieldNotValid(L.customUrl),
});

const accountFields = {
  brandName: displayText(L.brandName, M.accountTextMax),
  mainSiteLink: webLink(L.mainSiteLink),
  termsAndConditionsLink: webLink(L.termsAndConditionsLink),
  supportEmailAddress: requiredEmail(L.supportEmailAddress, M.supportEmailMax),
  supportPhoneNumber: displayText(L.supportPhoneNumber, M.supportPhoneMax),
};

/**
 * Reseller account settings (000 §5, 002 §5.9): customUrl, brandName, mainSiteLink and
 * termsAndConditionsLink required, max 100; supportEmailAddress required, valid e-mail, max 50;
 * supportPhoneNumber required, max 50. customUrl and resellerEnabled (the provider enables or disables
 * a reseller, 000 §6) are editable only by the provider admin: for any other role the schema has no
 * such fields, so they are dropped from the payload and the stored values stay.
 * Ours: the two links must be absolute http(s) URLs, the custom URL a host name or such a URL.
 */
const providerAccountSettingsSchema = z.object({
  ...accountFields,
  customUrl: customUrlField,
  resellerEnabled: checkbox.optional(),
});
const ownAccountSettingsSchema = z.object(accountFields);

export function resellerAccountSettingsSchema(role: 'ROLE_BOLT_ADMIN_USER'): typeof providerAccountSettingsSchema;
export function resellerAccountSettingsSchema(
  role: Exclude<Role, 'ROLE_BOLT_ADMIN_USER'>,
): typeof ownAccountSettingsSchema;
export function resellerAccountSettingsSchema(
  role: Role,
): typeof providerAccountSettingsSchema | typeof ownAccountSettingsSchema;
export function resellerAccountSettingsSchema(role: Role) {
  return mayEditCustomUrl(role) ? providerAccountSettingsSchema : ownAccountSettingsSchema;
}
/** The provider admin's form (with customUrl and resellerEnabled). */
export type ResellerAccountSettingsForm = z.input<typeof providerAccountSettingsSchema>;
export type ResellerAccountSettingsPayload = z.output<typeof providerAccountSettingsSchema>;
/** A reseller admin's own form (no customUrl, no resellerEnabled). */
export type OwnResellerAccountSettingsPayload = z.output<typeof ownAccountSettingsSchema>;

/** Whether a role may edit the custom URL (000 §5, 002 §5.9). */
export const mayEditCustomUrl = (role: Role) => role === 'ROLE_BOLT_ADMIN_USER';

/** Accepted images (000 §5, 002 §5.9): logo jpeg or png; favicon jpeg, png or icon. */
export const IMAGE_KINDS = {
  logo: { mimeTypes: ['image/jpeg', 'image/png'], extensions: ['.jpg', '.jpeg', '.png'] },
  favicon: {
    mimeTypes: ['image/jpeg', 'image/png', 'image/x-icon', 'image/vnd.microsoft.icon'],
    extensions: ['.jpg', '.jpeg', '.png', '.ico'],
  },
} as const satisfies Record<'logo' | 'favicon', FileKind>;

/** The accept attributes of the two file inputs. */
export const IMAGE_ACCEPT = {
  logo: acceptAttribute(IMAGE_KINDS.logo),
  favicon: acceptAttribute(IMAGE_KINDS.favicon),
} as const;

/**
 * Suggested sizes (000 §5 "about 120x560", read as 120 high by 560 wide, a header logo's shape; favicon 32x32):
 * other sizes are resized on upload (a logo fitted inside, keeping its proportions).
 */
export const IMAGE_SUGGESTED_SIZES = {
  logo: { width: 560, height: 120 },
  favicon: { width: 32, height: 32 },
} as const;

/** The hint under each image input (ours, from the suggested sizes). */
export const imageSizeHint = (kind: 'logo' | 'favicon') =>
  `Suggested size about ${IMAGE_SUGGESTED_SIZES[kind].width}x${IMAGE_SUGGESTED_SIZES[kind].height} pixels ` +
  '(width x height); other sizes are resized on upload.';

/** Ours: the wrong-type messages of the two images. */
export const IMAGE_TYPE_MESSAGES = {
  logo: 'Logo must be a jpeg or png image',
  favicon: 'Favicon must be a jpeg, png or icon image',
} as const;

/**
 * Ours: the largest logo or favicon upload (the server refuses a bigger one while reading it), and the most
 * pixels a decoded image may have (a small file that decodes to a huge picture is refused too).
 */
export const IMAGE_UPLOAD_LIMITS = { maxBytes: 2 * 1024 * 1024, maxPixels: 25_000_000 } as const;
export type ResellerImageKind = 'logo' | 'favicon';

/** The message of an image over the size limit, on its field. */
export const imageTooLargeMessage = (kind: ResellerImageKind) =>
  imageTooLarge(L[kind], IMAGE_UPLOAD_LIMITS.maxBytes / (1024 * 1024));

/**
 * An optional new image: no file keeps the stored one. The form checks the chosen file's type and size
 * here; the server decides by the file's content (magic bytes and decoding) and refuses it while reading
 * when it is too large.
 */
const imageField = (kind: ResellerImageKind) =>
  optionalUploadField(L[kind], IMAGE_KINDS[kind], IMAGE_TYPE_MESSAGES[kind]).refine(
    (file) => file === null || file.size === undefined || file.size <= IMAGE_UPLOAD_LIMITS.maxBytes,
    { error: imageTooLargeMessage(kind) },
  );

/** An optional colour as hex (#rgb or #rrggbb); blank means the default colour (null). */
const colourField = (label: string) =>
  z
    .string({ error: fieldNotValid(label) })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || HEX_COLOUR.test(v), { error: fieldNotValid(label) });

/**
 * Look-and-feel settings (000 §3, §5; 002 §3, §5.9): the seven colours as hex, blank for the default,
 * and a new logo or favicon, checked by MIME type and extension; no file keeps the current image.
 */
export const resellerLookAndFeelSettingsSchema = z.object({
  functionalBackgroundColour: colourField(L.functionalBackgroundColour),
  functionalButtonColour: colourField(L.functionalButtonColour),
  appHeaderColour: colourField(L.appHeaderColour),
  appHeaderTextColour: colourField(L.appHeaderTextColour),
  appEnabledButtonColour: colourField(L.appEnabledButtonColour),
  appDisabledButtonColour: colourField(L.appDisabledButtonColour),
  appBackgroundColour: colourField(L.appBackgroundColour),
  logo: imageField('logo'),
  favicon: imageField('favicon'),
});
/** The colours alone: what the server parses from the multipart fields (the images are checked by content). */
export const resellerLookAndFeelColoursSchema = resellerLookAndFeelSettingsSchema.omit({ logo: true, favicon: true });
export type ResellerLookAndFeelColours = z.output<typeof resellerLookAndFeelColoursSchema>;
export type ResellerLookAndFeelSettingsForm = z.input<typeof resellerLookAndFeelSettingsSchema>;
export type ResellerLookAndFeelSettingsPayload = z.output<typeof resellerLookAndFeelSettingsSchema>;

/** Whether a chosen file is an accepted logo or favicon (for a file input's own check). */
export const isAcceptedImage = (kind: ResellerImageKind, file: UploadedFile) => fileIsOfKind(file, IMAGE_KINDS[kind]);

/**
 * E-mail settings (000 §5, 002 §5.9): emailHost, emailUsername, emailPassword required, max 80;
 * emailPort required, at least 1 (ours: at most 65535); sendFromEmailAddress required, valid e-mail,
 * max 50. The password is not trimmed.
 */
export const resellerEmailSettingsSchema = z.object({
  emailHost: requiredText(L.emailHost, M.emailTextMax),
  emailPort: integerField(L.emailPort, { min: M.emailPortMin, max: M.emailPortMax }),
  emailUsername: requiredText(L.emailUsername, M.emailTextMax),
  emailPassword: z
    .string({ error: fieldRequired(L.emailPassword) })
    .min(1, fieldRequired(L.emailPassword))
    .max(M.emailTextMax, fieldTooLong(L.emailPassword, M.emailTextMax)),
  sendFromEmailAddress: requiredEmail(L.sendFromEmailAddress, M.sendFromEmailMax),
});
export type ResellerEmailSettingsForm = z.input<typeof resellerEmailSettingsSchema>;
export type ResellerEmailSettingsPayload = z.output<typeof resellerEmailSettingsSchema>;
