import { Page } from '../../ui';

// SKELETON (helper "machines" replaces): a plain customer user's own machines, /backupmachines.
export function MachinesPage() {
  return <Page title="Backup Machines" />;
}
