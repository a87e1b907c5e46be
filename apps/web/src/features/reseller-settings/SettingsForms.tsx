import {
  type BrandColourField,
  brandContrastWarnings,
  DEFAULT_COLOURS,
  lookAndFeelRefreshUrl,
  MESSAGE_ROUTING,
  MESSAGES,
  RESELLER_SETTINGS_LABELS,
  type ResellerAccountSettingsForm,
  type ResellerEmailSettingsForm,
  type ResellerLookAndFeelSettingsForm,
  type ResellerSettingsSection,
  type ResellerSettingsView,
  type Role,
  resellerAccountSettingsSchema,
  resellerEmailSettingsSchema,
  resellerLookAndFeelSettingsSchema,
  TIMINGS,
} from '@portal/domain';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { FieldValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField, GlobalErrors, TextField, useSubmitForm } from '../../ui';
import { ColourField, ImageField } from './fields';
import { LookAndFeelPreview } from './LookAndFeelPreview';
import { settingsFormData, useSaveResellerSection } from './mutations';

const T = MESSAGES.resellerSettings;
const L = RESELLER_SETTINGS_LABELS;

/**
 * One section's form: the domain's schema, the one mutation sending the section as form data, the catalogue's
 * toasts, server messages on their fields.
 */
function useSectionForm<F extends FieldValues, S extends z.ZodType<Record<string, unknown>>>(
  section: ResellerSettingsSection,
  customerId: number | null,
  {
    schema,
    defaults,
    fieldNames,
    onApplied,
  }: {
    schema: S;
    defaults: () => F;
    fieldNames: ReadonlyArray<Path<F>>;
    /** What follows a save the server made. */
    onApplied?: () => void;
  },
) {
  const email = section === 'reselleremailsettings';
  const routing = {
    reselleraccountsettings: MESSAGE_ROUTING.resellerAccountSettings,
    resellerlookandfeelsettings: MESSAGE_ROUTING.resellerLookAndFeelSettings,
    reselleremailsettings: MESSAGE_ROUTING.resellerEmailSettings,
  }[section];
  return useSubmitForm({
    schema,
    defaults,
    fieldNames,
    mutation: useSaveResellerSection(customerId),
    variables: (payload) => ({ section, body: settingsFormData(payload) }),
    routing,
    successText: email ? T.emailSaved : T.saved,
    partialText: email ? T.emailSavedWithErrors : T.savedWithErrors,
    unknownErrorText: T.unknownWhileSaving,
    onOutcome: (outcome) => {
      if (outcome.applied) onApplied?.();
    },
  });
}

function SaveButton({ submitting, testId }: { submitting: boolean; testId: string }) {
  return (
    <Button type="submit" disabled={submitting} data-testid={testId}>
      {T.saveButton}
    </Button>
  );
}

/** Account Settings (000 §5): customUrl and resellerEnabled only for the provider admin. */
export function AccountSettingsForm({
  settings,
  customerId,
  role,
}: {
  settings: ResellerSettingsView;
  customerId: number | null;
  role: Role;
}) {
  const { form, onSubmit, submitting, globalErrors } = useSectionForm('reselleraccountsettings', customerId, {
    schema: resellerAccountSettingsSchema(role),
    defaults: (): ResellerAccountSettingsForm => ({
      brandName: settings.brandName,
      customUrl: settings.customUrl,
      resellerEnabled: settings.resellerEnabled,
      mainSiteLink: settings.mainSiteLink,
      termsAndConditionsLink: settings.termsAndConditionsLink,
      supportEmailAddress: settings.supportEmailAddress,
      supportPhoneNumber: settings.supportPhoneNumber,
    }),
    fieldNames: [
      'brandName',
      'customUrl',
      'resellerEnabled',
      'mainSiteLink',
      'termsAndConditionsLink',
      'supportEmailAddress',
      'supportPhoneNumber',
    ],
  });
  return (
    <Form noValidate onSubmit={onSubmit} data-testid="account-settings-form">
      {settings.customUrlEditable ? (
        <>
          <CheckboxField form={form} name="resellerEnabled" label={L.resellerEnabled} />
          <TextField form={form} name="customUrl" label={L.customUrl} />
        </>
      ) : (
        // The reseller sees its own address; only the provider changes it (not part of the form, never sent).
        <Form.Group className="mb-3" controlId="reseller-custom-url">
          <Form.Label>{L.customUrl}</Form.Label>
          <Form.Control plaintext readOnly value={settings.customUrl} />
        </Form.Group>
      )}
      <TextField form={form} name="brandName" label={L.brandName} />
      <TextField form={form} name="mainSiteLink" label={L.mainSiteLink} type="url" />
      <TextField form={form} name="termsAndConditionsLink" label={L.termsAndConditionsLink} type="url" />
      <TextField form={form} name="supportEmailAddress" label={L.supportEmailAddress} type="email" />
      <TextField form={form} name="supportPhoneNumber" label={L.supportPhoneNumber} type="tel" />
      <GlobalErrors messages={globalErrors} />
      <SaveButton submitting={submitting} testId="save-account-settings" />
    </Form>
  );
}

const COLOURS = [
  ['appHeaderColour', DEFAULT_COLOURS.header],
  ['appHeaderTextColour', DEFAULT_COLOURS.headerText],
  ['appBackgroundColour', '#ffffff'],
  ['functionalBackgroundColour', '#ffffff'],
  ['functionalButtonColour', DEFAULT_COLOURS.functionalButton],
  ['appEnabledButtonColour', '#0d6efd'],
  ['appDisabledButtonColour', DEFAULT_COLOURS.functionalButton],
] as const;

/**
 * Look and Feel Settings (000 §3, §5): seven colours and the two images, previewed as they change, each colour whose
 * text would not read warned of (issue 31). Saved, the page reloads on this tab
 * (the look-and-feel marker) once the toast was shown, so the header, colours and favicon show the new brand.
 */
export function LookAndFeelForm({ settings }: { settings: ResellerSettingsView }) {
  const { form, onSubmit, submitting, globalErrors } = useSectionForm('resellerlookandfeelsettings', null, {
    schema: resellerLookAndFeelSettingsSchema,
    defaults: () =>
      ({
        ...Object.fromEntries(COLOURS.map(([name]) => [name, settings[name] ?? ''])),
        logo: null,
        favicon: null,
      }) as ResellerLookAndFeelSettingsForm,
    fieldNames: [...COLOURS.map(([name]) => name), 'logo', 'favicon'],
    onApplied: () => setTimeout(() => window.location.assign(lookAndFeelRefreshUrl()), TIMINGS.toastMs),
  });
  const values = form.watch();
  const colours = Object.fromEntries(COLOURS.map(([name]) => [name, values[name] || null])) as Record<
    BrandColourField,
    string | null
  >;
  const warnings = brandContrastWarnings(colours);
  return (
    <Form noValidate onSubmit={onSubmit} data-testid="look-and-feel-form">
      <LookAndFeelPreview
        colours={colours}
        brandName={settings.brandName}
        currentLogo={settings.logo}
        logoFiles={values.logo}
      />
      <div className="row">
        {COLOURS.map(([name, fallback]) => (
          <div className="col-md-6" key={name}>
            <ColourField form={form} name={name} label={L[name]} fallback={fallback} warning={warnings[name]} />
          </div>
        ))}
      </div>
      <ImageField form={form} name="logo" label={L.logo} current={settings.logo} />
      <ImageField form={form} name="favicon" label={L.favicon} current={settings.favicon} />
      <GlobalErrors messages={globalErrors} />
      <SaveButton submitting={submitting} testId="save-look-and-feel" />
    </Form>
  );
}

/**
 * Email Settings (000 §5, §7): tested before they are saved. The stored password is never shown: the form
 * asks for it again on every save (the schema requires it, and the test needs it).
 */
export function EmailSettingsForm({ settings }: { settings: ResellerSettingsView }) {
  const { form, onSubmit, submitting, globalErrors } = useSectionForm('reselleremailsettings', null, {
    schema: resellerEmailSettingsSchema,
    defaults: (): ResellerEmailSettingsForm => ({
      emailHost: settings.emailHost,
      emailPort: settings.emailPort === null ? '' : String(settings.emailPort),
      emailUsername: settings.emailUsername,
      emailPassword: '',
      sendFromEmailAddress: settings.sendFromEmailAddress,
    }),
    fieldNames: ['emailHost', 'emailPort', 'emailUsername', 'emailPassword', 'sendFromEmailAddress'],
    onApplied: (): void => form.resetField('emailPassword'),
  });
  return (
    <Form noValidate onSubmit={onSubmit} data-testid="email-settings-form">
      <TextField form={form} name="emailHost" label={L.emailHost} />
      <TextField form={form} name="emailPort" label={L.emailPort} type="number" />
      <TextField form={form} name="emailUsername" label={L.emailUsername} autoComplete="off" />
      <TextField form={form} name="emailPassword" label={L.emailPassword} type="password" autoComplete="new-password" />
      <Form.Text as="p" className="mt-n2 mb-3">
        {T.emailPasswordHint}
      </Form.Text>
      <TextField form={form} name="sendFromEmailAddress" label={L.sendFromEmailAddress} type="email" />
      <GlobalErrors messages={globalErrors} />
      <SaveButton submitting={submitting} testId="save-email-settings" />
    </Form>
  );
}
