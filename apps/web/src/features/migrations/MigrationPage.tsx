import {
  customerUrl,
  IN_USE_BADGE,
  MESSAGES,
  MIGRATION_TEXTS,
  type MigrationAction,
  type MigrationCommandView,
  type MigrationLocation,
  migrationLocationText,
  migrationStatusBadge,
  type PackageMigrationDetail,
  packageUrl,
  rcloneCommandLine,
  SYNC_TYPE_TEXTS,
  type SyncType,
  syncTypeBadge,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useParams } from 'react-router';
import { pathId } from '../../app/pathIds';
import { newRequestId } from '../../app/requestId';
import {
  ConfirmDialog,
  DetailTable,
  localDateTime,
  NotFound,
  Section,
  StatusBadge,
  type SubmitTexts,
  useDialogAction,
} from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { CommandConfirmations, commandDialogOf } from '../diagnostics/CommandDialogs';
import { CommandTabs } from '../diagnostics/CommandTabs';
import {
  type MigrationActionRoute,
  type MigrationRef,
  useDeleteSequence,
  useMigrationAction,
  useStopSequence,
  useSubmitSequence,
} from './mutations';
import { useLiveMigration } from './useLiveMigration';

const TEXT = MIGRATION_TEXTS;
const C = TEXT.columns;

/** The migration page's dialogs: a sync kind, an action on the migration, or one on a command sequence. */
type Dialog =
  | { kind: 'sequence'; type: SyncType }
  | { kind: 'cancel' | 'rollback' | 'finalize' }
  | { kind: 'stop' | 'delete'; command: MigrationCommandView };

const SEQUENCE_BUTTONS: ReadonlyArray<{ type: SyncType; action: MigrationAction; label: string }> = [
  { type: 'SYNC', action: 'sync', label: TEXT.startSync },
  { type: 'FINAL_SYNC', action: 'finalSync', label: TEXT.finalSync },
  { type: 'MISCELLANEOUS', action: 'miscellaneous', label: TEXT.miscellaneous },
];

/** A package migration's page (001 §2): its summary, its actions and its command sequences, live. */
export function MigrationPage() {
  const params = useParams();
  const customerId = pathId(params.customerId);
  const packageId = pathId(params.packageId);
  const migrationId = pathId(params.migrationId);
  return customerId === null || packageId === null || migrationId === null ? (
    <NotFound />
  ) : (
    <MigrationScreen key={migrationId} target={{ customerId, packageId, migrationId }} />
  );
}

function LocationCell({ location, inUse }: { location: MigrationLocation; inUse: boolean }) {
  return (
    <>
      {migrationLocationText(location)} {inUse && <StatusBadge status="IN_USE" badge={IN_USE_BADGE} className="ms-1" />}
    </>
  );
}

function Summary({ migration }: { migration: PackageMigrationDetail }) {
  return (
    <DetailTable
      aria-label={TEXT.sectionTitle}
      data-testid="migration-summary"
      rows={[
        { label: C.dateCreated, value: localDateTime(migration.dateCreated) },
        { label: C.backupPackage, value: migration.backupPackage.name },
        {
          label: C.sourceLocation,
          value: <LocationCell location={migration.sourceStorageLocation} inUse={migration.inUse === 'source'} />,
        },
        {
          label: C.destinationLocation,
          value: (
            <LocationCell location={migration.destinationStorageLocation} inUse={migration.inUse === 'destination'} />
          ),
        },
        {
          label: C.status,
          value: <StatusBadge status={migration.status} badge={migrationStatusBadge(migration.status)} />,
        },
        { label: C.finalized, value: migration.finalized ? TEXT.yes : TEXT.no },
      ]}
    />
  );
}

function MigrationScreen({ target }: { target: MigrationRef }) {
  const query = useLiveMigration(target);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // The dialog's subject stays while it fades out.
  const [last, setLast] = useState<Dialog | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const open = (next: Dialog) => {
    setDialog(next);
    setLast(next);
  };
  const close = () => setDialog(null);
  const sequences = query.data?.commandSequences ?? [];
  const active = sequences.some((c) => c.commandId === chosen) ? chosen : (sequences.at(-1)?.commandId ?? null);
  const button = (key: string, label: string, enabled: boolean, onClick: () => void, variant = 'outline-primary') => (
    <Button key={key} variant={variant} disabled={!enabled} onClick={onClick}>
      {label}
    </Button>
  );
  return (
    <DetailPage
      query={query}
      title={TEXT.pageTitle(target.migrationId)}
      breadcrumbs={
        query.data
          ? [
              { label: MESSAGES.packagePages.customerCrumb, href: customerUrl('provider', target.customerId) },
              { label: query.data.backupPackage.name, href: packageUrl('provider', target) },
              { label: `${target.migrationId}` },
            ]
          : []
      }
      actions={({ actions }) => (
        <div className="d-flex flex-wrap gap-2">
          {SEQUENCE_BUTTONS.map(({ type, action, label }) =>
            button(type, label, actions[action], () => open({ kind: 'sequence', type })),
          )}
          {button('cancel', TEXT.cancel, actions.cancel, () => open({ kind: 'cancel' }), 'outline-warning')}
          {button('rollback', TEXT.rollback, actions.rollback, () => open({ kind: 'rollback' }), 'outline-danger')}
          {button('finalize', TEXT.finalize, actions.finalize, () => open({ kind: 'finalize' }), 'success')}
        </div>
      )}
    >
      {(migration) => (
        <>
          <Section title={TEXT.summaryTitle}>
            <Summary migration={migration} />
          </Section>
          <Section title={TEXT.commandsTitle}>
            {sequences.length === 0 ? (
              <p className="text-muted mb-0" data-testid="no-commands">
                {MESSAGES.resticCommand.noCommands}
              </p>
            ) : (
              <CommandTabs
                commands={sequences}
                active={active}
                onSelect={setChosen}
                onStop={(command) => open({ kind: 'stop', command })}
                onDelete={(command) => open({ kind: 'delete', command })}
                commandLine={rcloneCommandLine}
                tabLabel={(command) => {
                  const badge = syncTypeBadge(command.syncType);
                  return <StatusBadge status={command.syncType} badge={badge} />;
                }}
              />
            )}
          </Section>
          <SequenceDialog
            show={dialog?.kind === 'sequence'}
            type={last?.kind === 'sequence' ? last.type : 'SYNC'}
            target={target}
            onHide={close}
            onSubmitted={setChosen}
          />
          {ACTION_DIALOGS.map((action) => (
            <ActionDialog key={action} action={action} show={dialog?.kind === action} onHide={close} target={target} />
          ))}
          <SequenceCommandDialogs dialog={dialog} last={last} target={target} onHide={close} />
        </>
      )}
    </DetailPage>
  );
}

/** Start sync / Final sync / Miscellaneous (001 §2): submits {requestId, type}; the new tab is chosen. */
function SequenceDialog({
  show,
  type,
  target,
  onHide,
  onSubmitted,
}: {
  show: boolean;
  type: SyncType;
  target: MigrationRef;
  onHide: () => void;
  onSubmitted: (commandId: string) => void;
}) {
  const confirm = useDialogAction({
    mutation: useSubmitSequence(target),
    variables: () => ({ requestId: newRequestId(), type }),
    onHide,
    onOutcome: (outcome, { requestId }) => {
      if (!outcome.close) return;
      onSubmitted(requestId);
      onHide();
    },
    successText: MESSAGES.resticCommand.submitted,
    partialText: MESSAGES.migration.performedWithErrors,
    unknownErrorText: MESSAGES.migration.unknownWhilePerforming,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      {...confirm}
      title={SYNC_TYPE_TEXTS[type]}
      confirmLabel={SYNC_TYPE_TEXTS[type]}
      variant={syncTypeBadge(type).variant}
      data-testid="sequence-dialog"
    >
      <p>{TEXT.syncDialogQuestion(SYNC_TYPE_TEXTS[type])}</p>
    </ConfirmDialog>
  );
}

const ACTION_DIALOGS: readonly MigrationActionRoute[] = ['cancel', 'rollback', 'finalize'];

/** Each action's words and toasts (001 §8; finalise is ours). */
const ACTIONS: Record<
  MigrationActionRoute,
  { title: string; question: string; variant: 'danger' | 'success'; texts: SubmitTexts<PackageMigrationDetail> }
> = {
  cancel: {
    // Not 'Cancel': the dialog's own button that closes it is called so.
    title: TEXT.cancelTitle,
    question: TEXT.cancelQuestion,
    variant: 'danger',
    texts: {
      successText: MESSAGES.migration.cancellationSubmitted,
      partialText: MESSAGES.migration.cancellationSubmittedWithErrors,
      unknownErrorText: MESSAGES.migration.unknownWhileCancelling,
    },
  },
  rollback: {
    title: TEXT.rollback,
    question: TEXT.rollbackQuestion,
    variant: 'danger',
    texts: {
      successText: MESSAGES.migration.rolledBack,
      partialText: MESSAGES.migration.rolledBackWithErrors,
      unknownErrorText: MESSAGES.migration.unknownWhileRollingBack,
    },
  },
  finalize: {
    title: TEXT.finalize,
    question: TEXT.finalizeQuestion,
    variant: 'success',
    texts: {
      successText: TEXT.finalized,
      partialText: TEXT.finalizedWithErrors,
      unknownErrorText: TEXT.unknownWhileFinalizing,
    },
  },
};

/** Cancel, roll back or finalise: a confirmation, then the call with the catalogue's toasts (001 §8). */
function ActionDialog({
  action,
  show,
  onHide,
  target,
}: {
  action: MigrationActionRoute;
  show: boolean;
  onHide: () => void;
  target: MigrationRef;
}) {
  const { title, question, variant, texts } = ACTIONS[action];
  const confirm = useDialogAction({
    ...texts,
    mutation: useMigrationAction(target, action),
    variables: () => undefined,
    onHide,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      {...confirm}
      title={title}
      confirmLabel={title}
      variant={variant}
      data-testid={`${action}-migration-dialog`}
    >
      <p>{question}</p>
    </ConfirmDialog>
  );
}

/** Stop a running sequence, delete a finished one: the restic diagnostics' confirmations and toasts. */
function SequenceCommandDialogs({
  dialog,
  last,
  target,
  onHide,
}: {
  dialog: Dialog | null;
  last: Dialog | null;
  target: MigrationRef;
  onHide: () => void;
}) {
  return (
    <CommandConfirmations
      shown={commandDialogOf(dialog)?.kind ?? null}
      last={commandDialogOf(last)}
      mutations={{ stop: useStopSequence(target), delete: useDeleteSequence(target) }}
      onHide={onHide}
      commandLine={rcloneCommandLine}
    />
  );
}
