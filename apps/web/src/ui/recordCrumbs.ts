import { type Audience, customerUrl, MESSAGES, machineUrl, PAGES, packageUrl, taskUrl } from '@portal/domain';
import type { Crumb } from './Page';

/** A backup machine's place, and its task's when on a task page: ids for the links, names for the labels. */
export interface RecordTrail {
  audience: Audience;
  customer: { id: number; name: string };
  backupPackage: { id: number; name: string };
  machine: { id: number; name: string };
  task?: { id: number; name: string };
}

/**
 * The breadcrumbs of a machine's or task's page (issue 31), each level by its name: an admin's customer, package,
 * machine and task; a customer's own machines list, machine and task. The last crumb is the page itself.
 */
export function recordCrumbs({ audience, customer, backupPackage, machine, task }: RecordTrail): Crumb[] {
  const ref = { customerId: customer.id, packageId: backupPackage.id, machineId: machine.id };
  const upper: Crumb[] =
    audience === 'customer'
      ? [{ label: MESSAGES.backupMachine.ownTitle, href: PAGES.ownMachines }]
      : [
          { label: customer.name, href: customerUrl(audience, customer.id) },
          { label: backupPackage.name, href: packageUrl(audience, ref) },
        ];
  const machineCrumb = { label: machine.name, href: machineUrl(audience, ref) };
  return task
    ? [...upper, machineCrumb, { label: task.name, href: taskUrl(audience, { ...ref, taskId: task.id }) }]
    : [...upper, machineCrumb];
}
