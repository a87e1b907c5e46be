import { editableResellerSections, mayEditCustomUrl, type ResellerSettingsView, type Role } from '@portal/domain';
import type { ResellerSettingsRow } from './repo.js';

/** The settings screen's view: the fields listed one by one, so the sealed e-mail password can never leave. */
export function presentResellerSettings(row: ResellerSettingsRow, role: Role): ResellerSettingsView {
  return {
    customerId: row.customerId,
    companyName: row.companyName,
    resellerEnabled: row.resellerEnabled,
    brandName: row.brandName ?? '',
    customUrl: row.customUrl ?? '',
    mainSiteLink: row.mainSiteLink ?? '',
    termsAndConditionsLink: row.termsAndConditionsLink ?? '',
    supportEmailAddress: row.supportEmailAddress ?? '',
    supportPhoneNumber: row.supportPhoneNumber ?? '',
    logo: row.logo,
    favicon: row.favicon,
    functionalBackgroundColour: row.functionalBackgroundColour,
    functionalButtonColour: row.functionalButtonColour,
    appHeaderColour: row.appHeaderColour,
    appHeaderTextColour: row.appHeaderTextColour,
    appEnabledButtonColour: row.appEnabledButtonColour,
    appDisabledButtonColour: row.appDisabledButtonColour,
    appBackgroundColour: row.appBackgroundColour,
    emailHost: row.emailHost ?? '',
    emailPort: row.emailPort,
    emailUsername: row.emailUsername ?? '',
    emailPasswordSet: row.emailPasswordEncrypted !== null,
    sendFromEmailAddress: row.sendFromEmailAddress ?? '',
    editableSections: editableResellerSections(role),
    customUrlEditable: mayEditCustomUrl(role),
  };
}
