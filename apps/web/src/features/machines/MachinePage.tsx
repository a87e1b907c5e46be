import {
  type Audience,
  customerUrl,
  DASHBOARD_TOPICS,
  dashboardChangeSchema,
  FILE_SEARCH_TEXTS,
  type MachineDetail,
  MESSAGES,
  machineStatusBadge,
  PAGES,
} from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { liveSideOf, useLiveTopic } from '../../app/live';
import { useSession } from '../../app/session';
import {
  ByPathId,
  DetailTable,
  localDateTime,
  recordCrumbs,
  Section,
  StatusBadge,
  TooltipButton,
  useDialogSubmit,
} from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { ResticDiagnosticsButton } from '../diagnostics/ResticDiagnosticsButton';
import { FileSearchPanel } from '../file-search/FileSearchPanel';
import { AddTaskButton } from '../tasks/form/TaskFormButtons';
import { TasksTable } from '../tasks/TasksTable';
import { ChangeMachineStatusDialog } from './ChangeMachineStatusDialog';
import { DeleteMachineDialog } from './DeleteMachineDialog';
import { EditMachineDialog } from './EditMachineDialog';
import { LogFilesDialog } from './LogFilesDialog';
import { LogUploadDialog } from './LogUploadDialog';
import { MachineStorageBar } from './MachineStorageBar';
import { MessageLogDialog } from './MessageLogDialog';
import { useSetRemoteManagement } from './mutations';
import { machineKeys, machineTasksKey, useMachine } from './queries';
import { RefreshStorageDialog } from './RefreshStorageDialog';
import { RotateStorageKeyDialog } from './RotateStorageKeyDialog';

const TEXT = MESSAGES.backupMachine;
const C = TEXT.columns;
const R = MESSAGES.remoteManagement;

type DialogKey = 'edit' | 'status' | 'delete' | 'refresh' | 'messages' | 'logUpload' | 'logFiles' | 'rotateKey';

/** Where a machine page leads back to: the own machines list, or the customer's page for its admins. */
function MachineDetails({ machine }: { machine: MachineDetail }) {
  const presence = machine.online ? TEXT.online : TEXT.offline;
  const lastSeen = machine.lastSeenAt ? localDateTime(machine.lastSeenAt) : TEXT.neverSeen;
  return (
    <DetailTable
      aria-label={TEXT.detailsTitle}
      data-testid="machine-details"
      rows={[
        { label: C.name, value: machine.name },
        { label: C.status, value: <StatusBadge status={machine.status} badge={machineStatusBadge(machine.status)} /> },
        { label: C.description, value: machine.description },
        { label: C.operatingSystem, value: machine.operatingSystem },
        { label: C.storageSpace, value: <MachineStorageBar machineId={machine.id} version={machine} /> },
        {
          label: C.assignedUser,
          value: machine.assignedUserUrl ? (
            <Link to={machine.assignedUserUrl}>{machine.assignedUser}</Link>
          ) : (
            machine.assignedUser
          ),
        },
        { label: R.label, value: <RemoteManagementSwitch machine={machine} /> },
        {
          label: C.online,
          value: (
            <span data-testid="machine-presence">
              <StatusBadge
                status={machine.online ? 'ONLINE' : 'OFFLINE'}
                label={presence}
                variant={machine.online ? 'success' : 'secondary'}
              />{' '}
              {!machine.online && `${TEXT.lastSeen}: ${lastSeen}`}
            </span>
          ),
        },
      ]}
    />
  );
}

/**
 * The remote-management button (002 §4.2, §6; issue 29): its state, and the switch the server says the caller may
 * use, whose tooltip says what a click does or why it is disabled.
 */
function RemoteManagementSwitch({ machine }: { machine: MachineDetail }) {
  const on = machine.remoteManagementEnabled;
  const submission = useDialogSubmit({
    mutation: useSetRemoteManagement(),
    successText: on ? R.turnedOff : R.turnedOn,
    partialText: on ? R.turnedOffWithErrors : R.turnedOnWithErrors,
    unknownErrorText: R.unknownWhileSwitching,
  });
  return (
    <span className="d-inline-flex align-items-center gap-2" data-testid="remote-management">
      <StatusBadge status={on ? 'ON' : 'OFF'} label={on ? R.on : R.off} variant={on ? 'success' : 'secondary'} />
      <TooltipButton
        size="sm"
        variant="outline-secondary"
        tooltip={machine.remoteManagementTooltip}
        disabled={!machine.remoteManagementSwitchable || submission.submitting}
        onClick={() => void submission.submit({ machineId: machine.id, enabled: !on })}
        data-testid="remote-management-switch"
      >
        {on ? R.turnOff : R.turnOn}
      </TooltipButton>
      {!machine.remoteManagementSwitchable && (
        <span className="small text-muted" data-testid="remote-management-reason">
          {machine.remoteManagementTooltip}
        </span>
      )}
    </span>
  );
}

function MachineActions({
  machine,
  provider,
  onOpen,
}: {
  machine: MachineDetail;
  provider: boolean;
  onOpen: (dialog: DialogKey) => void;
}) {
  const button = (key: DialogKey, label: string, variant = 'outline-primary') => (
    <Button key={key} variant={variant} onClick={() => onOpen(key)}>
      {label}
    </Button>
  );
  return (
    <>
      {machine.manageable && button('edit', TEXT.editButton)}
      {machine.statusOptions.length > 0 && button('status', TEXT.changeStatusButton)}
      {machine.administrable && button('refresh', TEXT.refreshStorageButton)}
      {button('messages', TEXT.messageLogButton, 'outline-secondary')}
      {provider && button('logUpload', TEXT.logUploadButton, 'outline-secondary')}
      {provider && button('logFiles', TEXT.logFilesButton, 'outline-secondary')}
      {machine.storageKeyRotatable && button('rotateKey', TEXT.rotateStorageKeyButton, 'outline-warning')}
      {provider && (
        <ResticDiagnosticsButton
          machine={{
            id: machine.id,
            name: machine.name,
            customerId: machine.customerId,
            backupPackageId: machine.backupPackageId,
          }}
          blockedReason={machine.diagnosticsBlockedReason}
        />
      )}
      {machine.deleteable && button('delete', TEXT.deleteButton, 'outline-danger')}
    </>
  );
}

/**
 * A backup machine's page for each audience (001 §2, 002 §2.3): the detail header with presence and the
 * storage widget, the dialogs the caller may use, and the machine's tasks. Another tenant's machine (or
 * one being deleted) is a not-found page.
 */
export function MachinePage({ audience }: { audience: Audience }) {
  return (
    <ByPathId param="machineId">{(machineId) => <MachineScreen audience={audience} machineId={machineId} />}</ByPathId>
  );
}

function MachineScreen({ audience, machineId }: { audience: Audience; machineId: number }) {
  const { actor } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useMachine(machineId);
  const [dialog, setDialog] = useState<DialogKey | null>(null);
  // Presence and status follow the live channel: a change of this machine reads it again.
  useLiveTopic(actor ? DASHBOARD_TOPICS[liveSideOf(actor)] : null, (body) => {
    const change = dashboardChangeSchema.safeParse(body === null ? null : JSON.parse(body));
    const ids = change.success ? change.data.machineIds : [];
    if (ids.length === 0 || ids.includes(machineId))
      void queryClient.invalidateQueries({ queryKey: machineKeys.detail(machineId) });
  });

  const close = () => setDialog(null);
  const machine = query.data;
  return (
    <DetailPage
      query={query}
      title={machine?.name ?? TEXT.pageTitle}
      breadcrumbs={
        machine
          ? recordCrumbs({
              audience,
              customer: { id: machine.customerId, name: machine.customerName },
              backupPackage: { id: machine.backupPackageId, name: machine.backupPackageName },
              machine,
            })
          : []
      }
      actions={(machine) => <MachineActions machine={machine} provider={audience === 'provider'} onOpen={setDialog} />}
    >
      {(machine) => (
        <>
          <Section title={TEXT.detailsTitle}>
            <MachineDetails machine={machine} />
          </Section>
          <Section title={TEXT.tasksTitle}>
            <AddTaskButton
              machineId={machine.id}
              osFamily={machine.osFamily}
              timeZone={machine.timeZone}
              blockedReason={machine.addTaskBlockedReason}
              onSaved={() => void queryClient.invalidateQueries({ queryKey: machineTasksKey(machine.id) })}
            />
            <TasksTable
              audience={audience}
              machine={{
                id: machine.id,
                customerId: machine.customerId,
                backupPackageId: machine.backupPackageId,
                osFamily: machine.osFamily,
              }}
            />
          </Section>
          <Section title={FILE_SEARCH_TEXTS.searchLabel}>
            <FileSearchPanel
              machineId={machine.id}
              history={{ osFamily: machine.osFamily, restore: machine.manageable, downloadDisabled: false }}
            />
          </Section>
          <EditMachineDialog show={dialog === 'edit'} onHide={close} machine={machine} />
          <ChangeMachineStatusDialog show={dialog === 'status'} onHide={close} machine={machine} />
          <DeleteMachineDialog
            show={dialog === 'delete'}
            onHide={close}
            machine={machine}
            onDeleted={() =>
              navigate(audience === 'customer' ? PAGES.ownMachines : customerUrl(audience, machine.customerId))
            }
          />
          <RefreshStorageDialog show={dialog === 'refresh'} onHide={close} machine={machine} />
          <RotateStorageKeyDialog show={dialog === 'rotateKey'} onHide={close} machine={machine} />
          <MessageLogDialog show={dialog === 'messages'} onHide={close} machineId={machine.id} />
          {audience === 'provider' && (
            <>
              <LogUploadDialog show={dialog === 'logUpload'} onHide={close} machine={machine} />
              <LogFilesDialog show={dialog === 'logFiles'} onHide={close} machine={machine} />
            </>
          )}
        </>
      )}
    </DetailPage>
  );
}
