import { type LogFileEntry, MESSAGES, ROUTES, withQuery } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';
import { type DataTableColumn, localDateTime, ViewModal, WholeTable } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { machineKeys } from './queries';

const TEXT = MESSAGES.backupMachine;

/** View log files (001 §2, §7; provider admins): the files the agent uploaded, each a text download. */
export function LogFilesDialog({ machine, ...shown }: MachineDialogProps) {
  const ref = { customerId: machine.customerId, packageId: machine.backupPackageId, machineId: machine.id };
  const files = useQuery({
    queryKey: machineKeys.logFiles(machine.id),
    queryFn: () => getResult(routeCall(ROUTES.machineCommands.logFiles, ref)),
    enabled: shown.show,
  });
  const columns: Array<DataTableColumn<LogFileEntry>> = [
    {
      key: 'name',
      header: TEXT.columns.fileName,
      // The server answers the file as an attachment under its own name (001 §7).
      render: (f) => (
        <a href={withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: f.fileName })} download={f.fileName}>
          {f.fileName}
        </a>
      ),
    },
    { key: 'modified', header: TEXT.columns.lastModified, render: (f) => localDateTime(f.lastModified) },
  ];
  const rows = files.data ?? [];
  return (
    <ViewModal {...shown} title={TEXT.logFilesTitle} closeLabel={TEXT.close} size="lg" data-testid="log-files-dialog">
      <WholeTable<LogFileEntry>
        aria-label={TEXT.logFilesTitle}
        columns={columns}
        rows={rows}
        rowKey={(f) => f.fileName}
        loading={files.isLoading}
        emptyText={TEXT.noLogFiles}
      />
    </ViewModal>
  );
}
