import type { MachineDetail } from '@portal/domain';

/** What every machine dialog takes: the machine as its page shows it. */
export interface MachineDialogProps {
  show: boolean;
  onHide: () => void;
  machine: MachineDetail;
  animation?: boolean;
}
