import {
  RESTORE_TEST_TEXTS,
  type RestoreTestSettingsForm,
  type RestoreTestSettingsView,
  restoreTestIntervalDays,
  restoreTestSettingsSchema,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { type DialogProps, FormDialog, Section, TextField, useFormDialog } from '../../ui';
import { useSaveRestoreTestSettings } from './mutations';
import { useRestoreTestSettings } from './queries';

const TEXT = RESTORE_TEST_TEXTS;

/**
 * The account's restore test interval (issue 32 item 1), on the account page of its super admin: how often every
 * task's restore is tested, the provider's default beside it, and 'Change interval' when the account is `editable`
 * (the server's flag; a blank interval is the provider's default).
 */
export function RestoreTestSettingsSection({ editable }: { editable: boolean }) {
  const settings = useRestoreTestSettings();
  const [editing, setEditing] = useState(false);
  const data = settings.data;
  return (
    <Section
      title={TEXT.settingsTitle}
      actions={
        data &&
        editable && (
          <Button size="sm" variant="outline-secondary" onClick={() => setEditing(true)}>
            {TEXT.changeButton}
          </Button>
        )
      }
    >
      {!data ? (
        settings.isPending && <Spinner animation="border" size="sm" role="status" />
      ) : (
        <div data-testid="restore-test-settings">
          <p className="mb-1" data-testid="restore-test-interval">
            {TEXT.interval(restoreTestIntervalDays(data.providerDefaultDays, data.intervalDays))}
          </p>
          <p className="text-muted small mb-0" data-testid="restore-test-provider-default">
            {data.intervalDays === null ? TEXT.usesProviderDefault : TEXT.providerDefault(data.providerDefaultDays)}
          </p>
          <RestoreTestSettingsDialog show={editing} onHide={() => setEditing(false)} settings={data} />
        </div>
      )}
    </Section>
  );
}

/** The interval in days, checked by the server's own schema; blank goes back to the provider's default. */
function RestoreTestSettingsDialog({ settings, ...shown }: DialogProps & { settings: RestoreTestSettingsView }) {
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: restoreTestSettingsSchema,
    defaults: (): RestoreTestSettingsForm => ({ intervalDays: settings.intervalDays?.toString() ?? '' }),
    mutation: useSaveRestoreTestSettings(),
    variables: (payload) => payload,
    fieldNames: ['intervalDays'],
    idPrefix: 'restore-test-',
    successText: TEXT.settingsSaved,
    partialText: TEXT.settingsSavedWithErrors,
    unknownErrorText: TEXT.unknownWhileSaving,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.settingsDialogTitle}
      submitLabel={TEXT.settingsSubmit}
      data-testid="restore-test-settings-dialog"
    >
      <TextField {...field} name="intervalDays" label={TEXT.intervalLabel} type="number" />
      <Form.Text as="p" className="mt-n2" muted>
        {TEXT.intervalHelp} {TEXT.providerDefault(settings.providerDefaultDays)}
      </Form.Text>
    </FormDialog>
  );
}
