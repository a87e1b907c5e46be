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

  /** Another customer's machines: all of them, to whoever may see that customer. */
  const otherCustomerScope = (customerId: number): MachineListScope => ({ customerId, assignedUserId: null });

  async function customerView(actor: Actor, customerId: number): Promise<CustomerView> {
    if (customerId === ALL_CUSTOMERS_ID) {
      if (!isProviderAdmin(actor)) throw forbidden();
      return { scope: { customerId: null, assignedUserId: null }, audience: 'provider' };
    }
    if (customerId === actor.customerId) return ownCustomerView(actor);
    const customer = await repo.customer(customerId);
    if (customer && isProviderAdmin(actor)) return { scope: otherCustomerScope(customerId), audience: 'provider' };
    if (customer && isResellerAdmin(actor) && customer.parentResellerCustomerId === actor.customerId) {
      return { scope: otherCustomerScope(customerId), audience: 'reseller' };
    }
    throw notFound();
  }

  /**
   * Reads a customer's machines in the view the caller has of it. When that view needs the customer looked up, the
   * read runs beside the look-up rather than after it (issue 33 item 5: one round trip of waiting, not two); what it
   * read is dropped unanswered when the caller may not see the customer.
   */
  async function inCustomerView<T>(actor: Actor, customerId: number, read: (scope: MachineListScope) => Promise<T>) {
    if (customerId === ALL_CUSTOMERS_ID || customerId === actor.customerId) {
      const view = await customerView(actor, customerId);
      return { view, result: await read(view.scope) };
    }
    const [view, result] = await Promise.all([customerView(actor, customerId), read(otherCustomerScope(customerId))]);
    return { view, result };
  }

  async function machineView(actor: Actor, machineId: number) {
    const machine = await repo.machine(machineId);
    if (!machine) throw notFound();
    const audience = machineAudience(actor, machine);
    if (audience === null) throw notFound();
    return { machine, audience };
  }

  /** Reads a machine's tasks beside the look-up of whether the caller may see it (as inCustomerView). */
  async function inMachineView<T>(actor: Actor, machineId: number, read: () => Promise<T>) {
    const [view, result] = await Promise.all([machineView(actor, machineId), read()]);
    return { ...view, result };
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
      const { view, result } = await inCustomerView(actor, customerId, (scope) => machinePage(scope, query));
      return { ...result, audience: view.audience };
    },
    async customerMachineCounts(actor: Actor, customerId: number) {
      return (await inCustomerView(actor, customerId, (scope) => repo.machineCounts(scope))).result;
    },
    async ownMachines(actor: Actor, query: MachineListQuery) {
      const view = ownCustomerView(actor);
      return { ...(await machinePage(view.scope, query)), audience: view.audience };
    },
    ownMachineCounts: (actor: Actor) => repo.machineCounts(ownCustomerView(actor).scope),

    async machineTasks(actor: Actor, machineId: number, query: TaskListQuery) {
      const filter = query.taskStatus ? { taskStatus: query.taskStatus } : {};
      const { machine, audience, result } = await inMachineView(actor, machineId, () =>
        repo.taskPage(machineId, filter, query.sort, query),
      );
      return { ...result, machine, audience };
    },
    async machineTaskCounts(actor: Actor, machineId: number) {
      return (await inMachineView(actor, machineId, () => repo.taskCounts(machineId))).result;
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

  function machinePage(scope: MachineListScope, query: MachineListQuery) {
    const filter = {
      ...(query.taskStatus ? { taskStatus: query.taskStatus } : {}),
      ...(query.status ? { status: query.status } : {}),
    };
    return repo.machinePage(scope, filter, query.sort, query);
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>;
