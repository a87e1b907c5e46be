import { MESSAGES, ROUTES } from '@portal/domain';
import { routeCall } from '../../app/api';
import { Page } from '../../ui';
import { MachinesTable } from './MachinesTable';
import { machineKeys } from './queries';

const OWN = routeCall(ROUTES.machines.own, {});

/** /backupmachines (002 §2.3): a customer user's own machines, a customer admin's customer's machines. */
export function MachinesPage() {
  return (
    <Page title={MESSAGES.backupMachine.ownTitle}>
      <MachinesTable call={OWN} queryKey={[...machineKeys.lists(), 'own']} />
    </Page>
  );
}
