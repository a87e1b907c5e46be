import type { MachineDetail } from '@portal/domain';
import type { DialogProps } from '../../ui';
import type { MachineOnPackage } from './mutations';

/** What every machine dialog takes: the machine as its page shows it. */
export interface MachineDialogProps extends DialogProps {
  machine: MachineDetail;
}

/** The machine on its package's admin action path (001 §7), as the machine actions send it. */
export const machineOnPackage = (machine: MachineDetail): MachineOnPackage => ({
  machineId: machine.id,
  packageId: machine.backupPackageId,
});
