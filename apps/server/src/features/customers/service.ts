import {
  type Actor,
  type AdminAudience,
  accountLogoUrl,
  type Branding,
  type CustomerAccount,
  type CustomerAccountEditPayload,
  type CustomerDetail,
  type CustomerRow,
  type CustomerSearchQuery,
  type CustomerStatus,
  canChangeCustomerStatus,
  canDeleteCustomer,
  customerStatusChangeRefused,
  isCustomerSuperAdmin,
  type ManagedCustomers,
  MESSAGES,
  MFA_TEXTS,
  managedCustomers,
  mayBecomeReseller,
  mayChange,
  type Paged,
  type PagingQuery,
  pageOf,
  type UserViewer,
} from '@portal/domain';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { AuditRepo } from '../audit/repo.js';
import type { ClientInfo, SignedIn } from '../auth/service.js';
import type { BackupStateService } from '../backup-state/service.js';
import { presentAccount, presentCustomerDetail, presentCustomerPackageRow, presentCustomerRow } from './present.js';
import type { CustomerList, CustomersRepo } from './repo.js';

/** Who manages a customer and how: the audience of the links, and the customers in reach. */
export interface AdminView {
  actor: Actor;
  audience: AdminAudience;
  scope: ManagedCustomers;
}

/**
 * The caller as manager of customers through the routes of an audience: /boltadmin for provider
 * admins (every customer), /admin/mycustomers for reseller admins (their own child customers). The
 * routes' access levels already admit only these; this decides the scope.
 */
export function adminView(actor: Actor, audience: AdminAudience): AdminView {
  const scope = managedCustomers(actor);
  // The provider's routes are for the provider's scope only, and the reseller's for a reseller's.
  if (scope === null || (scope.kind === 'all') !== (audience === 'provider')) throw forbidden();
  return { actor, audience, scope };
}

/** The provider's three lists (002 §2.5) and a reseller's own customers. */
export type ListName = 'customers' | 'customersToMakeResellers' | 'resellers';

const LISTS: Record<ListName, CustomerList> = {
  customers: { kind: 'all' },
  customersToMakeResellers: { kind: 'toMakeResellers' },
  resellers: { kind: 'resellers' },
};

/**
 * Customer administration (002 §2.5, §4.1, §4.5, §7.3) and the customer's own account (001 §2, §5).
 * Every customer is looked up within the caller's scope first: one out of reach answers 404 exactly as
 * one that does not exist, before any other check, so ids reveal nothing.
 */
export function createCustomerService(deps: {
  repo: CustomersRepo;
  backupState: Pick<BackupStateService, 'setCustomerStatus'>;
  /** The enabled reseller settings that brand a customer (its own as a reseller, else its reseller's). */
  brandingFor: (customerId: number) => Promise<Branding | null>;
  /** Sends a machine's agent its task list again (whether its tasks may run follows the customer's status). */
  syncTasks: (machineId: number) => Promise<void>;
  /** Tells the deletion job there is work (it also sweeps on its own, so a lost kick only delays). */
  deletionRequested: () => void;
  /**
   * Its users' sessions carry the customer's status, deletion, two-factor policy, reseller settings, name and their
   * roles: they are looked up again after any of these changes (the status changes through the backup state, which
   * says so itself).
   */
  customerChanged: (customerId: number) => Promise<void>;
  audit: Pick<AuditRepo, 'record'>;
}) {
  const { repo } = deps;

  async function customerOf(view: AdminView, customerId: number) {
    const row = await repo.customer(view.scope, customerId);
    if (!row) throw notFound();
    return row;
  }

  /** A customer the caller may change: found in scope first (404), then not read-only (403). */
  async function changeableCustomer(view: AdminView, customerId: number) {
    const row = await customerOf(view, customerId);
    if (!mayChange(view.actor)) throw forbidden();
    return row;
  }

  async function detail(view: AdminView, customerId: number): Promise<CustomerDetail> {
    const row = await customerOf(view, customerId);
    return presentCustomerDetail(row, await repo.storageLocations(customerId), view.audience);
  }

  async function page(view: AdminView, list: CustomerList, query: CustomerSearchQuery): Promise<Paged<CustomerRow>> {
    const { rows, total } = await repo.customerPage(list, query.search, query);
    return pageOf(
      rows.map((row) => presentCustomerRow(row, view.audience)),
      total,
      query.size,
    );
  }

  return {
    /** One of the provider's lists (provider admins only). */
    list(view: AdminView, name: ListName, query: CustomerSearchQuery) {
      if (view.audience !== 'provider') throw forbidden();
      return page(view, LISTS[name], query);
    },

    /** A reseller admin's own customers (ours: GET /admin/mycustomerspaginated). */
    myCustomers(view: AdminView, query: CustomerSearchQuery) {
      if (view.scope.kind !== 'childrenOf') throw forbidden();
      return page(view, view.scope, query);
    },

    detail,

    async packages(view: AdminView, customerId: number, paging: PagingQuery) {
      await customerOf(view, customerId);
      const { rows, total } = await repo.packagePage(customerId, paging);
      return pageOf(
        rows.map((row) => presentCustomerPackageRow(row, view.audience)),
        total,
        paging.size,
      );
    },

    /** The customer is in the caller's reach; its users are then looked at as this viewer. */
    async userViewer(view: AdminView, customerId: number): Promise<UserViewer> {
      await customerOf(view, customerId);
      return { actor: view.actor, audience: view.audience };
    },

    /**
     * A status change the dialog offers (002 §4.1, from the stored status); anything else 400. It goes
     * through the backup state, so the customer's tasks and the dashboard's counts change with it.
     */
    async changeStatus(view: AdminView, customerId: number, to: CustomerStatus): Promise<CustomerDetail> {
      const row = await changeableCustomer(view, customerId);
      if (!canChangeCustomerStatus(row.status, to)) throw badRequest(customerStatusChangeRefused(row.status, to));
      if (!(await deps.backupState.setCustomerStatus(customerId, to))) throw notFound();
      // Agents learn at once that their tasks stop or may run again; one that is offline hears it on connecting.
      await Promise.all((await repo.onlineMachineIds(customerId)).map((id) => deps.syncTasks(id)));
      return detail(view, customerId);
    },

    /**
     * Deletion (002 §4.1): only a SUSPENDED customer, never a reseller with customers of its own. It is
     * marked at once (its users signed out, its machines cut off) and removed by the deletion job.
     * Asking again while it is being deleted is answered as the first time.
     */
    async remove(view: AdminView, customerId: number): Promise<void> {
      const row = await repo.customer(view.scope, customerId, { includeBeingDeleted: true });
      if (!row) throw notFound();
      if (!mayChange(view.actor)) throw forbidden();
      if (!row.beingDeleted) {
        if (!canDeleteCustomer(row.status)) throw badRequest(MESSAGES.customer.deleteOnlySuspended);
        if (row.numberOfChildCustomers > 0) throw conflict(MESSAGES.customer.resellerHasCustomers);
        // Checked again in the marking statement: a status change or new child in between refuses it.
        if (!(await repo.markForDeletion(customerId))) {
          const again = await repo.customer(view.scope, customerId, { includeBeingDeleted: true });
          if (!again?.beingDeleted) throw conflict(MESSAGES.customer.deleteOnlySuspended);
        }
        await deps.customerChanged(customerId);
      }
      deps.deletionRequested();
    },

    async setPlugins(view: AdminView, customerId: number, cpanelPluginEnabled: boolean): Promise<CustomerDetail> {
      await changeableCustomer(view, customerId);
      await repo.setPlugins(customerId, cpanelPluginEnabled);
      return detail(view, customerId);
    },

    /** 002 §4.5: a customer the make-reseller rule allows becomes a reseller (brand name: its name). */
    async makeReseller(view: AdminView, customerId: number): Promise<CustomerDetail> {
      if (view.audience !== 'provider') throw forbidden();
      const row = await changeableCustomer(view, customerId);
      if (!mayBecomeReseller(row)) throw badRequest(MESSAGES.customer.cannotMakeReseller);
      await repo.enableReseller(customerId, row.displayName.slice(0, 100));
      await deps.customerChanged(customerId);
      return detail(view, customerId);
    },

    // --- The caller's own account (001 §2, §5, §7) ---------------------------------------------------

    account: (actor: Actor) => account(actor),
    setMfaPolicy,

    /**
     * Edit account details (001 §5, §7): the super admin only. userIdToBeAdmin must be one of the
     * account's active admins; another than the caller takes the super admin role over and the caller
     * becomes an admin, in one transaction. allowProviderMachineControl is not the main brand's
     * customers' to set (001 §6: the option is hidden for them), so it is ignored for them.
     */
    async editAccount(actor: Actor, payload: CustomerAccountEditPayload): Promise<CustomerAccount> {
      if (actor.customerId === null || !isCustomerSuperAdmin(actor) || !mayChange(actor)) throw forbidden();
      const current = await repo.account(actor.customerId);
      if (!current) throw notFound();
      const boltCustomer = current.parentResellerCustomerId === null;
      const saved = await repo.updateAccount(actor.customerId, {
        companyName: payload.companyName,
        cpanelPluginEnabled: payload.cpanelPluginEnabled,
        userIdToBeAdmin: payload.userIdToBeAdmin,
        allowProviderMachineControl: boltCustomer ? undefined : payload.allowProviderMachineControl,
      });
      if (!saved) throw badRequest(MESSAGES.account.adminNotCandidate, 'userIdToBeAdmin');
      await deps.customerChanged(actor.customerId);
      // Handing the role over makes the caller an admin from this answer on (their next request agrees).
      const stillSuperAdmin = payload.userIdToBeAdmin === actor.userId;
      return account(stillSuperAdmin ? actor : { ...actor, role: 'ROLE_CUSTOMER_ADMIN_USER' });
    },
  };

  /**
   * The account's two-factor sign-in requirement (ours, issue 18): its super admin's, like the account's edit. A
   * super admin without two-factor sign-in cannot require it (they would be sent to set it up before anything
   * else); it applies to every user of the account from their next request (their sessions are looked up again).
   */
  async function setMfaPolicy(session: SignedIn, client: ClientInfo, requireMfa: boolean): Promise<CustomerAccount> {
    const { actor, user } = session;
    if (actor.customerId === null || !isCustomerSuperAdmin(actor) || !mayChange(actor)) throw forbidden();
    if (requireMfa && !user.mfaEnabled) throw badRequest(MFA_TEXTS.policy.enableYourselfFirst, 'requireMfa');
    if (!(await repo.setRequireMfa(actor.customerId, requireMfa))) throw notFound();
    await deps.customerChanged(actor.customerId);
    // The route's record says the policy changed; this one says which way.
    await deps.audit.record({
      type: requireMfa ? 'ACCOUNT_MFA_REQUIRED' : 'ACCOUNT_MFA_NOT_REQUIRED',
      userId: user.id,
      customerId: actor.customerId,
      email: user.email,
      ipAddress: client.ip,
    });
    return account(actor);
  }

  async function account(actor: Actor): Promise<CustomerAccount> {
    if (actor.customerId === null) throw forbidden();
    const [row, candidates, branding] = await Promise.all([
      repo.account(actor.customerId),
      repo.adminCandidates(actor.customerId),
      deps.brandingFor(actor.customerId),
    ]);
    if (!row) throw notFound();
    return presentAccount(row, {
      logo: accountLogoUrl(branding),
      editable: isCustomerSuperAdmin(actor) && mayChange(actor),
      candidates,
    });
  }
}

export type CustomerService = ReturnType<typeof createCustomerService>;
