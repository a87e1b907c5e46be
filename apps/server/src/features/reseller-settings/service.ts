import {
  type Actor,
  editableResellerSections,
  errorMessage,
  imageTooLargeMessage,
  isProviderAdmin,
  isResellerSuperAdmin,
  MESSAGES,
  mayEditCustomUrl,
  type ResellerImageKind,
  type ResellerSettingsSection,
  type ResellerSettingsView,
  resellerAccountSettingsSchema,
  resellerEmailSettingsSchema,
  resellerLookAndFeelColoursSchema,
  resellerPortalHost,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, badRequest, conflict, notFound, parseWith } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import type { SmtpTrust } from '../../platform/smtp.js';
import type { SecretBox } from '../../secrets.js';
import { testEmailSettings } from './email-test.js';
import { ImageRejected, type PreparedImage, prepareImage } from './images.js';
import { presentResellerSettings } from './present.js';
import { createResellerSettingsRepo, type ResellerSettingsRepo, type ResellerSettingsRow } from './repo.js';

const T = MESSAGES.resellerSettings;

/** A multipart body as the routes read it: text fields, and the image files by field name. */
export interface SettingsUpload {
  fields: Record<string, unknown>;
  files: Partial<Record<ResellerImageKind, Buffer>>;
  /** An image field whose file went over IMAGE_UPLOAD_LIMITS.maxBytes. */
  tooLarge: ResellerImageKind | null;
}

/**
 * Reseller settings (000 §2-§7, 002 §5.9, §7.4; issue 17): the settings screen's reads and the three sections'
 * saves, for a reseller's super admin (its own customer) and a provider admin (any customer with reseller
 * settings; the account section only). Anyone else, a reseller's customer included, finds nothing.
 */
export function createResellerSettingsService(deps: {
  db: Db;
  repo: ResellerSettingsRepo;
  secrets: SecretBox;
  smtp: SmtpTrust;
  /** Told after a save: this instance's cache of brands by host name shows the change at once. */
  brandChanged?: () => void;
  /** The customer's users' sessions carry whether it is an enabled reseller: looked up again after the provider's save. */
  customerChanged?: (customerId: number) => Promise<void>;
}) {
  const { repo } = deps;

  /** The settings the caller may open: its own when it is the super admin of an enabled reseller, or any as provider. */
  async function settingsFor(actor: Actor, customerId: number): Promise<ResellerSettingsRow> {
    const row = await repo.find(customerId);
    const allowed =
      row !== null &&
      (isProviderAdmin(actor) ||
        (isResellerSuperAdmin(actor) && actor.customerId === customerId && row.resellerEnabled));
    if (!allowed) throw notFound(T.notAReseller);
    return row;
  }

  function mayEditSection(actor: Actor, section: ResellerSettingsSection): void {
    if (!editableResellerSections(actor.role).includes(section))
      throw new AppError(403, 'FORBIDDEN', [errorMessage(T.providerAccountOnly, '', 'FORBIDDEN')]);
  }

  async function reread(actor: Actor, customerId: number): Promise<ResellerSettingsView> {
    return presentResellerSettings(await settingsFor(actor, customerId), actor.role);
  }

  async function saveAccount(actor: Actor, customerId: number, upload: SettingsUpload) {
    const payload = parseWith(resellerAccountSettingsSchema(actor.role), upload.fields);
    const provider = 'customUrl' in payload && mayEditCustomUrl(actor.role);
    if (provider) {
      const host = resellerPortalHost(payload.customUrl);
      const others = host === null ? [] : await repo.customUrlsLike(customerId, host);
      if (others.some((other) => resellerPortalHost(other) === host)) throw conflict(T.customUrlTaken, 'customUrl');
    }
    try {
      await repo.update(customerId, {
        brandName: payload.brandName,
        mainSiteLink: payload.mainSiteLink,
        termsAndConditionsLink: payload.termsAndConditionsLink,
        supportEmailAddress: payload.supportEmailAddress,
        supportPhoneNumber: payload.supportPhoneNumber,
        ...(provider
          ? {
              customUrl: payload.customUrl,
              ...(payload.resellerEnabled === undefined ? {} : { resellerEnabled: payload.resellerEnabled }),
            }
          : {}),
      });
    } catch (error) {
      // Two saves of the same URL at once: the unique index decides.
      if (isUniqueViolation(error)) throw conflict(T.customUrlTaken, 'customUrl');
      throw error;
    }
    if (provider) await deps.customerChanged?.(customerId);
  }

  async function saveLookAndFeel(customerId: number, current: ResellerSettingsRow, upload: SettingsUpload) {
    const colours = parseWith(resellerLookAndFeelColoursSchema, upload.fields);
    if (upload.tooLarge) throw badRequest(imageTooLargeMessage(upload.tooLarge), upload.tooLarge);
    const images: Partial<Record<ResellerImageKind, PreparedImage>> = {};
    const rejected: ResellerImageKind[] = [];
    for (const kind of ['logo', 'favicon'] as const) {
      const bytes = upload.files[kind];
      if (!bytes) continue;
      try {
        images[kind] = await prepareImage(kind, bytes);
      } catch (error) {
        if (!(error instanceof ImageRejected)) throw error;
        rejected.push(kind);
      }
    }
    if (rejected.length > 0) {
      throw new AppError(
        400,
        'VALIDATION_FAILED',
        rejected.map((kind) => errorMessage(new ImageRejected(kind).message, kind, 'VALIDATION_FAILED')),
      );
    }
    const replaced = (['logo', 'favicon'] as const).flatMap((kind) => {
      const old = current[kind];
      return images[kind] && old && old !== images[kind]?.fileName ? [old] : [];
    });
    await deps.db.transaction(async (tx) => {
      const txRepo = createResellerSettingsRepo(tx);
      for (const image of Object.values(images)) await txRepo.putImage(image.fileName, image.png);
      await txRepo.update(customerId, {
        ...colours,
        ...(images.logo ? { logo: images.logo.fileName } : {}),
        ...(images.favicon ? { favicon: images.favicon.fileName } : {}),
      });
      await txRepo.removeUnusedImages(replaced);
    });
  }

  async function saveEmail(customerId: number, current: ResellerSettingsRow, upload: SettingsUpload) {
    const payload = parseWith(resellerEmailSettingsSchema, upload.fields);
    if (!current.supportEmailAddress) throw badRequest(T.emailNeedsSupportAddress);
    try {
      await testEmailSettings(
        payload,
        { supportEmailAddress: current.supportEmailAddress, brandName: current.brandName || current.companyName },
        deps.smtp,
      );
    } catch (error) {
      // The form's own test of its settings: the answer names the field to fix.
      throw outsideServiceAnswer(error, { onField: (failure) => failure.fieldName });
    }
    await repo.update(customerId, {
      emailHost: payload.emailHost,
      emailPort: payload.emailPort,
      emailUsername: payload.emailUsername,
      emailPasswordEncrypted: deps.secrets.encrypt(payload.emailPassword),
      sendFromEmailAddress: payload.sendFromEmailAddress,
    });
  }

  return {
    view: reread,

    /** Saves one section (000 §7): checks the caller may, parses it with the domain's schema, then saves. */
    async save(
      actor: Actor,
      customerId: number,
      section: ResellerSettingsSection,
      upload: SettingsUpload,
    ): Promise<ResellerSettingsView> {
      const current = await settingsFor(actor, customerId);
      mayEditSection(actor, section);
      if (section === 'reselleraccountsettings') await saveAccount(actor, customerId, upload);
      else if (section === 'resellerlookandfeelsettings') await saveLookAndFeel(customerId, current, upload);
      else await saveEmail(customerId, current, upload);
      deps.brandChanged?.();
      return reread(actor, customerId);
    },

    /** A stored logo or favicon's PNG bytes, or null. */
    image: (fileName: string) => repo.image(fileName),
  };
}
export type ResellerSettingsService = ReturnType<typeof createResellerSettingsService>;
