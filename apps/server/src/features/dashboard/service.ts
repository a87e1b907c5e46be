import {
  type Actor,
  ALL_CUSTOMERS_ID,
  ATTENTION_LIST_SIZE,
  type Audience,
  CUSTOMER_STATUSES,
  type CustomerListQuery,
  customerStatusGroup,
  type GettingStartedFlags,
  isCustomerUser,
  isProviderAdmin,
  isResellerAdmin,
  type MachineListQuery,
  type ManagedCustomers,
  machineAudience,
  managedCustomers,
  type TaskListQuery,
} from '@portal/domain';
import type { Executor } from '../../db/client.js';
import { forbidden, notFound } from '../../http/errors.js';
import { tenantScopeOf } from '../verification/scope.js';
import type { DashboardRepo, MachineListScope } from './repo.js';

/** Who may see a customer's machines, and with which links (000 §2 'Routes built as links'). */
interface CustomerView {
  scope: MachineListScope;
  audience: Audience;
}

/**
 * The dashboard's use cases. Every call is scoped to the caller (DESIGN §4): a customer or machine the
 * caller may not see answers 404, exactly as one that does not exist, so ids reveal nothing.
 */
export function createDashboardService(repo: DashboardRepo, db: Executor) {
  /** The customers table: the provider sees every customer, a reseller admin its child customers. */
  function customerListScope(actor: Actor): ManagedCustomers {
    const scope = managedCustomers(actor);
    if (scope === null) throw forbidden();
    return scope;
  }

  const adminAudience = (actor: Actor): 'provider' | 'reseller' => (isProviderAdmin(actor) ? 'provider' : 'reseller');

  /** The caller's own customer: a customer user sees only the machines assigned to them. */
  function ownCustomerView(actor: Actor): CustomerView {
    if (actor.customerId === null) throw forbidden();
    return {
      scope: { customerId: actor.customerId, assignedUserId: isCustomerUser(actor) ? actor.userId : null },
      audience: 'customer',
    };
  }

  async function customerView(actor: Actor, customerId: number): Promise<CustomerView> {
    if (customerId === ALL_CUSTOMERS_ID) {
      if (!isProviderAdmin(actor)) throw forbidden();
      return { scope: { customerId: null, assignedUserId: null }, audience: 'provider' };
    }
    if (customerId === actor.customerId) return ownCustomerView(actor);
    const customer = await repo.customer(customerId);
    if (customer && isProviderAdmin(actor))
      return { scope: { customerId, assignedUserId: null }, audience: 'provider' };
    if (customer && isResellerAdmin(actor) && customer.parentResellerCustomerId === actor.customerId) {
      return { scope: { customerId, assignedUserId: null }, audience: 'reseller' };
    }
    throw notFound();
  }

  async function machineView(actor: Actor, machineId: number) {
    const machine = await repo.machine(machineId);
    if (!machine) throw notFound();
    const audience = machineAudience(actor, machine);
    if (audience === null) throw notFound();
    return { machine, audience };
  }

  /** The displayed statuses that fall in a customer status pie slice. */
  const statusesOfGroup = (group: NonNullable<CustomerListQuery['statusGroup']>) =>
    CUSTOMER_STATUSES.filter((status) => customerStatusGroup(status) === group);

  return {
    async customers(actor: Actor, query: CustomerListQuery) {
      const scope = customerListScope(actor);
      const filter = {
        ...(query.taskStatus ? { taskStatus: query.taskStatus } : {}),
        ...(query.statusGroup ? { displayStatuses: statusesOfGroup(query.statusGroup) } : {}),
      };
      const page = await repo.customerPage(scope, filter, query.sort, query);
      return { ...page, audience: adminAudience(actor) };
    },
    customerCounts: (actor: Actor) => repo.customerCounts(customerListScope(actor)),

    async customerMachines(actor: Actor, customerId: number, query: MachineListQuery) {
      return machinePage(await customerView(actor, customerId), query);
    },
    async customerMachineCounts(actor: Actor, customerId: number) {
      return repo.machineCounts((await customerView(actor, customerId)).scope);
    },
    ownMachines: (actor: Actor, query: MachineListQuery) => machinePage(ownCustomerView(actor), query),
    ownMachineCounts: (actor: Actor) => repo.machineCounts(ownCustomerView(actor).scope),

    async machineTasks(actor: Actor, machineId: number, query: TaskListQuery) {
      const { machine, audience } = await machineView(actor, machineId);
      const filter = query.taskStatus ? { taskStatus: query.taskStatus } : {};
      const page = await repo.taskPage(machineId, filter, query.sort, query);
      return { ...page, machine, audience };
    },
    async machineTaskCounts(actor: Actor, machineId: number) {
      await machineView(actor, machineId);
      return repo.taskCounts(machineId);
    },

    async attention(actor: Actor) {
      const scope = await tenantScopeOf(db, actor);
      const rows = await repo.attentionItems(scope, ATTENTION_LIST_SIZE);
      return { rows, ...(await repo.attentionCounts(scope)) };
    },

    async gettingStarted(actor: Actor): Promise<GettingStartedFlags> {
      if (actor.customerId === null) throw forbidden();
      const customer = await repo.customer(actor.customerId);
      if (!customer) throw notFound();
      const progress = await repo.gettingStartedProgress(actor.customerId);
      return {
        boltCustomer: customer.parentResellerCustomerId === null,
        firstPaymentRequired: customer.firstPaymentRequired,
        firstMachineLinkedToUser: progress.machineLinked,
        firstBackupTaskCreated: progress.taskCreated,
      };
    },
  };

  async function machinePage(view: CustomerView, query: MachineListQuery) {
    const filter = {
      ...(query.taskStatus ? { taskStatus: query.taskStatus } : {}),
      ...(query.status ? { status: query.status } : {}),
    };
    const page = await repo.machinePage(view.scope, filter, query.sort, query);
    return { ...page, audience: view.audience };
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>;
