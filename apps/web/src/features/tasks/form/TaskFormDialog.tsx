import { zodResolver } from '@hookform/resolvers/zod';
import {
  BACKUP_TYPE_TEXTS,
  BACKUP_TYPES,
  type BackupType,
  exclusionPlatformOf,
  MESSAGES,
  newTaskForm,
  type OsFamily,
  onCreateSeedToggled,
  onPruningToggled,
  onScheduleChanged,
  onSnapshotsToggled,
  onSnapshotsToKeepInput,
  onSnapshotsUnlimitedToggled,
  onSyncDeletionsToggled,
  onTaskTypeChanged,
  onUploadBandwidthLimitInput,
  onUploadBandwidthUnlimitedToggled,
  retentionPreviewKeep,
  SPEED_UNIT_TEXTS,
  SPEED_UNITS,
  selectAll,
  setExclusions,
  TASK_FORM_LABELS,
  TASK_FORM_TEXTS,
  type TaskDefinition,
  type TaskForm,
  type TaskFormMode,
  type TaskPayload,
  TIME_UNIT_TEXTS,
  TIME_UNITS,
  TREE_TEXTS,
  taskFieldVisibility,
  taskFormFromDefinition,
  taskFormSchemaFor,
  toBackupItems,
  toggleItem,
  unselectAll,
} from '@portal/domain';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { machineCommandFailureText } from '../../../app/machine-commands';
import { newRequestId } from '../../../app/requestId';
import { ConfirmDialog, FormModal, GlobalErrors, TextField, toast, useDialogSubmit, useOnOpen } from '../../../ui';
import { SchedulePicker } from '../../../ui/SchedulePicker';
import { NextRuns, SchedulePresets } from '../../../ui/SchedulePresets';
import { TreePicker } from '../../../ui/TreePicker';
import { RetentionPreviewPanel } from '../Guardrails';
import { ExclusionsEditor } from './ExclusionsEditor';
import { useSaveTask } from './mutations';
import { SeedPathDialog } from './SeedPathDialog';
import { useMachineTree } from './useMachineTree';

const TEXT = TASK_FORM_TEXTS;
const L = TASK_FORM_LABELS;

export interface TaskFormDialogProps {
  show: boolean;
  onHide: () => void;
  machineId: number;
  osFamily: OsFamily;
  timeZone: string;
  mode: TaskFormMode;
  /** Null when adding; when editing, the stored definition (the dialog waits for it). */
  definition: TaskDefinition | null;
  loadFailed?: boolean;
  onSaved: () => void;
  animation?: boolean | undefined;
}

/** The form holds a checkbox's raw value (a boolean, or its text); this reads it as the payload will. */
const isOn = (value: boolean | 'true' | 'false' | undefined) => value === true || value === 'true';

/** A message of the form's errors at a dotted path ('extraTaskSettings.numberOf…', 'exclusions.2'). */
function errorAt(errors: FieldErrors<TaskForm>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The add/edit task dialog (002 §2.6, §4.3, §4.4, §5.6, §5.7): every field of the payload, the field
 * interplay of the domain (each change goes through its pure function), the machine's item tree, the
 * exclusions, the info modals for sync deletions and the snapshot frequency limit, and seed disk path
 * selection. Saving sends newtask or edittask over the live channel and waits for the reply with its
 * request id: success toasts 'Backup task saved', closes and tells the parent; a reply with messages
 * toasts the warning and shows them; a refusal shows its messages; no reply in 20 s says 'Error in
 * communicating with backup machine.'. The form resets to the defaults when the dialog closes.
 */
export function TaskFormDialog({
  show,
  onHide,
  machineId,
  osFamily,
  timeZone,
  mode,
  definition,
  loadFailed = false,
  onSaved,
  animation,
}: TaskFormDialogProps) {
  const editing = mode === 'edit';
  const platform = exclusionPlatformOf(osFamily);
  const form = useForm<TaskForm, unknown, TaskPayload>({
    resolver: zodResolver(taskFormSchemaFor(platform)) as Resolver<TaskForm, unknown, TaskPayload>,
    defaultValues: newTaskForm(''),
  });
  const values = form.watch();
  const { errors, isSubmitting, isSubmitted } = form.formState;
  const tree = useMachineTree(machineId, platform);
  const [visibility, setVisibility] = useState({ showFiles: true, showHidden: false });
  const [frequencyInfo, setFrequencyInfo] = useState(false);
  const [syncConfirm, setSyncConfirm] = useState(false);
  const [seedPicker, setSeedPicker] = useState(false);
  const started = useRef(false);

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSaveTask(),
    successText: MESSAGES.task.saved,
    partialText: MESSAGES.task.savedWithErrors,
    unknownErrorText: MESSAGES.responseError,
    onCommunicationError: (error) => toast.error(machineCommandFailureText(error)),
  });

  // Each opening starts from the defaults (adding) or from the stored task (editing, once it has come).
  useOnOpen(show, () => {
    started.current = false;
  });
  useEffect(() => {
    if (!show || started.current || (editing && definition === null)) return;
    started.current = true;
    const start = definition ? taskFormFromDefinition(definition, newRequestId()) : newTaskForm(newRequestId());
    form.reset(start);
    void tree.reset({
      ...(definition ? { type: definition.type } : {}),
      exclusions: definition?.exclusions ?? [],
      selection: definition?.backupItems ?? [],
    });
  }, [show, editing, definition, form, tree.reset]);

  // The tree is the selection: the payload's backupItems follow it.
  useEffect(() => {
    if (!started.current) return;
    form.setValue('backupItems', toBackupItems(tree.state), { shouldValidate: isSubmitted });
  }, [tree.state, form, isSubmitted]);

  /** Applies one interplay rule of the domain to the form. */
  const apply = (rule: (current: TaskForm) => TaskForm) => {
    const current = form.getValues();
    const next = rule(current);
    for (const key of Object.keys(next) as (keyof TaskForm)[]) {
      if (next[key] !== current[key]) form.setValue(key, next[key] as never, { shouldValidate: isSubmitted });
    }
  };

  // The form holds the select's raw value; this reads it as the payload will.
  const type = BACKUP_TYPES.find((t) => t === values.type) ?? 'FILES_AND_FOLDERS';
  const visible = taskFieldVisibility(type, mode);
  const originalSchedule = definition?.backupScheduleDefinition ?? null;
  const changeSchedule = (schedule: string) =>
    apply((current) => onScheduleChanged(current, schedule, originalSchedule));

  const save = form.handleSubmit(async (payload) => {
    const outcome = await submit({ machineId, payload });
    // A reply settles the request id; after a time-out the same id is sent again, so a retry cannot save twice.
    if (outcome.kind !== 'communicationError') form.setValue('createOrUpdateTaskRequestId', newRequestId());
    if (outcome.applied) onSaved();
    if (outcome.close) onHide();
  });

  const changeType = (next: BackupType) => {
    apply((current) => onTaskTypeChanged(current, next));
    void tree.reset({ type: next, exclusions: form.getValues('exclusions') ?? [] });
  };

  const changeExclusions = (exclusions: string[]) => {
    form.setValue('exclusions', exclusions, { shouldValidate: isSubmitted });
    tree.setState((current) => setExclusions(current, exclusions));
  };

  const keepCount = values.numberOfSnapshotsToKeep;
  // Issue 32: a changed limit shows what the next retention would forget with it (waits while the number is typed).
  const previewKeep = useDeferredValue(
    definition && isOn(values.snapshotsEnabled) && !isOn(values.snapshotsUnlimited)
      ? retentionPreviewKeep(definition.numberOfSnapshotsToKeep, keepCount)
      : null,
  );
  const bandwidth = values.uploadBandwidthLimit;
  const pruneCount = values.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems;
  const exclusionErrors = (values.exclusions ?? []).map((_, i) => errorAt(errors, `exclusions.${i}`));

  return (
    <>
      <FormModal
        show={show}
        title={mode === 'add' ? TEXT.addTitle : TEXT.editTitle}
        onHide={onHide}
        onSubmit={save}
        submitting={isSubmitting}
        submitLabel={TEXT.save}
        submitDisabled={editing && definition === null}
        size="lg"
        onExited={() => {
          // 002 §4.3: on close the form resets to the defaults.
          form.reset(newTaskForm(''));
          tree.clear();
          clearErrors();
          setVisibility({ showFiles: true, showHidden: false });
          started.current = false;
        }}
        animation={animation}
        data-testid="task-form-dialog"
      >
        {loadFailed && definition === null ? (
          <GlobalErrors
            messages={[{ type: 'ERROR', fieldName: '', message: MESSAGES.communicationError, responseCode: 'ERROR' }]}
          />
        ) : (
          <>
            <TextField form={form} idPrefix="task-" name="name" label={L.name} />
            <Form.Group className="mb-3" controlId="task-type">
              <Form.Label>{L.type}</Form.Label>
              <Form.Select
                value={type}
                disabled={mode === 'edit'}
                onChange={(e) => changeType(e.target.value as BackupType)}
              >
                {BACKUP_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {BACKUP_TYPE_TEXTS[type]}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>

            <SchedulePresets value={values.backupScheduleDefinition ?? ''} onChange={changeSchedule} />
            <SchedulePicker
              value={values.backupScheduleDefinition ?? ''}
              onChange={changeSchedule}
              error={errorAt(errors, 'backupScheduleDefinition')}
            />
            <NextRuns schedule={values.backupScheduleDefinition ?? ''} timeZone={timeZone} />

            <div className="mb-3" data-testid="task-items">
              <div className="form-label">{L.backupItems}</div>
              {visible.showFilesAndHidden && (
                <div className="d-flex gap-3 mb-1">
                  <Toggle
                    id="task-show-files"
                    label={TEXT.showFiles}
                    on={visibility.showFiles}
                    onToggle={(showFiles) => setVisibility((v) => ({ ...v, showFiles }))}
                  />
                  <Toggle
                    id="task-show-hidden"
                    label={TEXT.showHidden}
                    on={visibility.showHidden}
                    onToggle={(showHidden) => setVisibility((v) => ({ ...v, showHidden }))}
                  />
                </div>
              )}
              <TreePicker
                state={tree.state}
                visibility={visible.showFilesAndHidden ? visibility : { showFiles: true, showHidden: true }}
                loading={tree.loading}
                loadingText={TREE_TEXTS.loading}
                label={L.backupItems}
                onToggle={(value) => tree.setState((current) => toggleItem(current, value))}
                onOpen={(item, opened) => void tree.open(item, opened)}
                onSelectAll={() => tree.setState((current) => selectAll(current, visibility))}
                onUnselectAll={() => tree.setState(unselectAll)}
              />
              {errorAt(errors, 'backupItems') && (
                <div className="text-danger small mt-1" data-testid="items-error">
                  {errorAt(errors, 'backupItems')}
                </div>
              )}
            </div>

            {type === 'FILES_AND_FOLDERS' && (
              <ExclusionsEditor
                exclusions={values.exclusions ?? []}
                platform={platform}
                onChange={changeExclusions}
                entryErrors={exclusionErrors}
                listError={errorAt(errors, 'exclusions')}
                animation={animation}
              />
            )}

            {visible.snapshots && (
              <fieldset className="mb-3" data-testid="task-snapshots">
                <Toggle
                  id="task-snapshots-enabled"
                  label={TEXT.snapshotsEnabled}
                  on={values.snapshotsEnabled}
                  onToggle={(on) => {
                    apply((current) => onSnapshotsToggled(current, on));
                    if (on) setFrequencyInfo(true);
                  }}
                />
                {isOn(values.snapshotsEnabled) && (
                  <>
                    <Toggle
                      id="task-snapshots-unlimited"
                      label={TEXT.snapshotsUnlimited}
                      on={values.snapshotsUnlimited}
                      onToggle={(unlimited) => apply((current) => onSnapshotsUnlimitedToggled(current, unlimited))}
                    />
                    {!isOn(values.snapshotsUnlimited) && (
                      <NumberRow
                        id="task-snapshots-to-keep"
                        label={L.numberOfSnapshotsToKeep}
                        value={keepCount}
                        error={errorAt(errors, 'numberOfSnapshotsToKeep')}
                        onChange={(text) => apply((current) => onSnapshotsToKeepInput(current, text))}
                      />
                    )}
                    {previewKeep !== null && definition && (
                      <RetentionPreviewPanel path={{ machineId, taskId: definition.id }} keep={previewKeep} />
                    )}
                    <Toggle
                      id="task-auto-delete-failed"
                      label={TEXT.autoDeleteFailedSnapshots}
                      on={values.autoDeleteFailedSnapshots}
                      onToggle={(on) => apply((current) => ({ ...current, autoDeleteFailedSnapshots: on }))}
                    />
                  </>
                )}
              </fieldset>
            )}

            <Toggle
              id="task-sync-deletions"
              className="mb-3"
              label={TEXT.syncDeletions}
              on={values.syncDeletions}
              onToggle={(on) => {
                // 002 §4.3: turning sync deletions on asks for confirmation first.
                if (on) setSyncConfirm(true);
                else apply((current) => onSyncDeletionsToggled(current, false));
              }}
            />

            <fieldset className="mb-3" data-testid="task-bandwidth">
              <legend className="form-label fs-6">{L.uploadBandwidthLimit}</legend>
              <Toggle
                id="task-bandwidth-unlimited"
                label={TEXT.uploadBandwidthUnlimited}
                on={values.uploadBandwidthUnlimited}
                onToggle={(unlimited) => apply((current) => onUploadBandwidthUnlimitedToggled(current, unlimited))}
              />
              {!isOn(values.uploadBandwidthUnlimited) && (
                <NumberRow
                  id="task-bandwidth-limit"
                  label={L.uploadBandwidthLimit}
                  value={bandwidth}
                  error={errorAt(errors, 'uploadBandwidthLimit')}
                  onChange={(text) => apply((current) => onUploadBandwidthLimitInput(current, text))}
                  unit={
                    <Form.Select aria-label={L.uploadBandwidthLimitUnit} {...form.register('uploadBandwidthLimitUnit')}>
                      {SPEED_UNITS.map((unit) => (
                        <option key={unit} value={unit}>
                          {SPEED_UNIT_TEXTS[unit]}
                        </option>
                      ))}
                    </Form.Select>
                  }
                />
              )}
            </fieldset>

            {visible.pruning && (
              <fieldset className="mb-3" data-testid="task-pruning">
                <Toggle
                  id="task-pruning-enabled"
                  label={TEXT.pruningEnabled}
                  on={values.pruningEnabled}
                  onToggle={(on) => apply((current) => onPruningToggled(current, on))}
                />
                {isOn(values.pruningEnabled) && (
                  <NumberRow
                    id="task-pruning-count"
                    label={L.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems}
                    value={pruneCount}
                    error={errorAt(errors, 'extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems')}
                    onChange={(text) =>
                      form.setValue('extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems', text, {
                        shouldValidate: isSubmitted,
                      })
                    }
                    unit={
                      <Form.Select
                        aria-label={L.timeUnitForBackupItemPruning}
                        {...form.register('extraTaskSettings.timeUnitForBackupItemPruning')}
                      >
                        {TIME_UNITS.map((unit) => (
                          <option key={unit} value={unit}>
                            {TIME_UNIT_TEXTS[unit]}
                          </option>
                        ))}
                      </Form.Select>
                    }
                  />
                )}
              </fieldset>
            )}
            {visible.backupAnyNewAvailableItems && (
              <Toggle
                id="task-backup-new-items"
                className="mb-3"
                label={TEXT.backupAnyNewAvailableItems}
                on={values.extraTaskSettings.backupAnyNewAvailableItems}
                onToggle={(on) =>
                  form.setValue('extraTaskSettings.backupAnyNewAvailableItems', on, { shouldValidate: isSubmitted })
                }
              />
            )}

            {visible.seeding && (
              <fieldset className="mb-3" data-testid="task-seeding">
                <Toggle
                  id="task-create-seed"
                  label={TEXT.createSeed}
                  on={values.createSeed}
                  onToggle={(on) => apply((current) => onCreateSeedToggled(current, on))}
                />
                {isOn(values.createSeed) && (
                  <Form.Group as={Row} className="mt-1" controlId="task-seed-path">
                    <Form.Label column sm={4}>
                      {L.pathToSeedDisk}
                    </Form.Label>
                    <Col sm={6}>
                      <Form.Control
                        readOnly
                        value={values.pathToSeedDisk ?? ''}
                        isInvalid={Boolean(errorAt(errors, 'pathToSeedDisk'))}
                      />
                      <Form.Control.Feedback type="invalid">{errorAt(errors, 'pathToSeedDisk')}</Form.Control.Feedback>
                    </Col>
                    <Col sm={2}>
                      <Button variant="outline-secondary" onClick={() => setSeedPicker(true)}>
                        {TEXT.chooseSeedPath}
                      </Button>
                    </Col>
                  </Form.Group>
                )}
              </fieldset>
            )}
            {errorAt(errors, 'createSeed') && <div className="text-danger small">{errorAt(errors, 'createSeed')}</div>}
            <GlobalErrors messages={globalErrors} />
          </>
        )}
      </FormModal>

      {/* The info and confirmation modals sit beside the form, so their own submits never reach it. */}
      <Modal
        show={frequencyInfo}
        onHide={() => setFrequencyInfo(false)}
        animation={animation}
        data-testid="snapshot-frequency-info"
      >
        <Modal.Header closeButton>
          <Modal.Title>{TEXT.snapshotFrequencyTitle}</Modal.Title>
        </Modal.Header>
        <Modal.Body>{MESSAGES.task.snapshotFrequencyWarning}</Modal.Body>
        <Modal.Footer>
          <Button onClick={() => setFrequencyInfo(false)}>{TEXT.ok}</Button>
        </Modal.Footer>
      </Modal>
      <ConfirmDialog
        show={syncConfirm}
        onHide={() => setSyncConfirm(false)}
        title={TEXT.syncDeletionsTitle}
        confirmLabel={TEXT.syncDeletionsConfirm}
        variant="warning"
        onConfirm={async () => {
          apply((current) => onSyncDeletionsToggled(current, true));
          setSyncConfirm(false);
        }}
        animation={animation}
        data-testid="sync-deletions-confirm"
      >
        {TEXT.syncDeletionsInfo}
      </ConfirmDialog>
      <SeedPathDialog
        show={seedPicker}
        machineId={machineId}
        platform={platform}
        onHide={() => setSeedPicker(false)}
        onSelect={(path) => {
          form.setValue('pathToSeedDisk', path, { shouldValidate: isSubmitted });
          setSeedPicker(false);
        }}
        animation={animation}
      />
    </>
  );
}

/** A checkbox of the dialog: checked as `on` reads, each change to `onToggle`. */
function Toggle({
  id,
  label,
  on,
  onToggle,
  className,
}: {
  id: string;
  label: string;
  on: boolean | 'true' | 'false' | undefined;
  onToggle: (on: boolean) => void;
  className?: string;
}) {
  return (
    <Form.Check
      id={id}
      className={className}
      label={label}
      checked={isOn(on)}
      onChange={(e) => onToggle(e.target.checked)}
    />
  );
}

/** A number input with its message and an optional unit select beside it. */
function NumberRow({
  id,
  label,
  value,
  error,
  onChange,
  unit,
}: {
  id: string;
  label: string;
  value: unknown;
  error: string | undefined;
  onChange: (text: string) => void;
  unit?: React.ReactNode;
}) {
  return (
    <Form.Group as={Row} className="mt-1 mb-1" controlId={id}>
      <Form.Label column sm={4}>
        {label}
      </Form.Label>
      <Col sm={unit ? 4 : 8}>
        <Form.Control
          inputMode="numeric"
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value)}
          isInvalid={Boolean(error)}
        />
        <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      </Col>
      {unit && <Col sm={4}>{unit}</Col>}
    </Form.Group>
  );
}
