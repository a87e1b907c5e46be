import { type ResellerSettingsSection, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { resellerSettingsKeys } from './queries';

/** A section's payload as the multipart body of 000 §7: every field as text, the chosen images as files. */
export function settingsFormData(payload: Record<string, unknown>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(payload)) {
    if (value === null || value === undefined) continue;
    body.append(name, value instanceof Blob ? value : String(value));
  }
  return body;
}

/**
 * PUT of one section (000 §7, 002 §7.4): /admin/account/{section} for the caller's own settings,
 * /boltadmin/customers/{customerId}/{section} for the provider's view. Answers the settings as saved.
 */
export const useSaveResellerSection = (customerId: number | null) =>
  useApiMutation({
    request: ({ section, body }: { section: ResellerSettingsSection; body: FormData }) =>
      customerId === null
        ? call(ROUTES.resellerSettings.saveOwn, { section }, body)
        : call(ROUTES.resellerSettings.saveProvider, { customerId, section }, body),
    refreshes: () => [{ queryKey: resellerSettingsKeys.of(customerId), afterMs: 0 }],
  });
