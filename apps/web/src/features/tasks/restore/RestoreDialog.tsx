import { zodResolver } from '@hookform/resolvers/zod';
import {
  exclusionPlatformOf,
  MESSAGES,
  type OsFamily,
  RESTORE_CONFLICT_CHOICES,
  RESTORE_CONFLICT_TEXTS,
  RESTORE_FORM_LABELS,
  type RestoreConflictChoice,
  type RestoreRequestForm,
  restoreRequestSchemaFor,
} from '@portal/domain';
import { useId, useMemo } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { type DialogProps, TextField, useDialogSubmit } from '../../../ui';
import { MachineFolderPicker } from '../form/MachineFolderPicker';
import { type RunRef, useRestoreToMachine } from './mutations';
import { ItemsDialog, useChosenItems } from './SnapshotTree';

const TEXT = MESSAGES.restore;

/** The targets as offered: a folder of the machine first (the default), then the items' original places. */
const TARGET_CHOICES = [
  { value: 'FOLDER', label: TEXT.restoreTargetFolder },
  { value: 'ORIGINAL', label: TEXT.restoreTargetOriginal },
] as const;

type RestoreFormValues = RestoreRequestForm & {
  restoreAllItems: boolean;
  targetFolder: string;
  existingFiles: RestoreConflictChoice;
};

const newRequest = (): RestoreFormValues => ({
  requestId: crypto.randomUUID(),
  restoreAllItems: false,
  backedUpItemsToRestore: [],
  target: 'FOLDER',
  targetFolder: '',
  // Nothing on the machine is lost unless the user asks for it.
  existingFiles: 'KEEP_BOTH',
});

export interface RestoreDialogProps extends DialogProps {
  run: RunRef;
  /** The machine's platform decides what an absolute folder is. */
  osFamily: OsFamily;
  /** The agent has taken the restore: the page shows its action. */
  onStarted: () => void;
}

/**
 * Restore to the machine (issue 14): everything, or the items chosen in the run's snapshot tree (the download's
 * tree), to their original place or below another absolute folder of the machine, typed or picked (one folder) in
 * the machine's live folder tree (the task dialog's), with the choice for files already there (issue 31: keep both
 * by default; overwriting the original place is warned of). The agent then runs `restic restore`, shown as a Restore
 * action of the task.
 */
export function RestoreDialog({ show, run, osFamily, onHide, onStarted, animation }: RestoreDialogProps) {
  const platform = exclusionPlatformOf(osFamily);
  const schema = useMemo(() => restoreRequestSchemaFor(platform), [platform]);
  const form = useForm<RestoreFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<RestoreFormValues>,
    defaultValues: newRequest(),
  });
  const choice = useChosenItems((items) => {
    form.setValue('backedUpItemsToRestore', items);
    form.clearErrors('backedUpItemsToRestore');
  });
  const targetId = useId();
  const submission = useDialogSubmit({
    mutation: useRestoreToMachine(),
    successText: TEXT.restoreStarted,
    partialText: TEXT.restoreStarted,
    unknownErrorText: TEXT.unknownWhileStartingRestore,
    form: {
      setError: form.setError,
      fieldNames: ['backedUpItemsToRestore', 'targetFolder', 'target', 'existingFiles'],
    },
  });
  const restoreAll = form.watch('restoreAllItems');
  const target = form.watch('target');
  const targetFolder = form.watch('targetFolder');
  const existingFiles = form.watch('existingFiles');
  const itemsError = form.formState.errors.backedUpItemsToRestore?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    const outcome = await submission.submit({ run, request: schema.parse(values) });
    if (!outcome.close) return;
    onHide();
    if (outcome.applied) onStarted();
  });

  return (
    <ItemsDialog
      show={show}
      title={TEXT.restoreTitle}
      onHide={onHide}
      onSubmit={onSubmit}
      submitting={submission.submitting}
      submitLabel={TEXT.restoreSubmit}
      onExited={() => form.reset(newRequest())}
      animation={animation}
      data-testid="restore-dialog"
      run={run}
      allLabel={TEXT.restoreAll}
      all={restoreAll}
      onAllChange={(all) => {
        form.setValue('restoreAllItems', all);
        form.clearErrors('backedUpItemsToRestore');
      }}
      choice={choice}
      itemsError={itemsError}
      submission={submission}
    >
      <fieldset className="mt-3">
        <legend className="fs-6">{RESTORE_FORM_LABELS.target}</legend>
        {TARGET_CHOICES.map(({ value, label }) => (
          <Form.Check
            key={value}
            type="radio"
            id={`${targetId}-${value.toLowerCase()}`}
            label={label}
            value={value}
            {...form.register('target')}
          />
        ))}
      </fieldset>
      {target === 'FOLDER' ? (
        <div className="mt-2">
          <TextField form={form} name="targetFolder" label={RESTORE_FORM_LABELS.targetFolder} idPrefix="restore-" />
          <Form.Text className="d-block mt-n2 mb-2">{TEXT.restoreFolderHelp}</Form.Text>
          <MachineFolderPicker
            machineId={run.machineId}
            platform={platform}
            label={TEXT.restoreFolderTree}
            value={targetFolder}
            onChange={(path) => form.setValue('targetFolder', path, { shouldValidate: form.formState.isSubmitted })}
          />
        </div>
      ) : (
        existingFiles === 'OVERWRITE' && (
          <Alert variant="warning" className="mt-2 mb-0">
            {TEXT.restoreOverwriteWarning}
          </Alert>
        )
      )}
      <fieldset className="mt-3">
        <legend className="fs-6">{RESTORE_FORM_LABELS.existingFiles}</legend>
        {RESTORE_CONFLICT_CHOICES.map((value) => (
          <Form.Check
            key={value}
            type="radio"
            id={`${targetId}-existing-${value.toLowerCase()}`}
            label={RESTORE_CONFLICT_TEXTS[value]}
            value={value}
            {...form.register('existingFiles')}
          />
        ))}
      </fieldset>
    </ItemsDialog>
  );
}
