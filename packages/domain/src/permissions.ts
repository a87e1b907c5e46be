import type { Role } from './enums.js';
import type { Audience } from './paths.js';

/** Who is calling: derived by the server from the session, never from the client. */
export interface Actor {
  userId: number;
  role: Role;
  /** The user's own customer; null for provider admins. */
  customerId: number | null;
  /** The own customer's reseller settings say reseller is enabled (always true for the provider). */
  resellerEnabled: boolean;
  /** The own customer is a direct customer of the provider (no parent reseller). */
  boltCustomer: boolean;
  readOnly: boolean;
}

export const isProviderAdmin = (a: Actor) => a.role === 'ROLE_BOLT_ADMIN_USER';
export const isCustomerSuperAdmin = (a: Actor) => a.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER';
export const isCustomerAdmin = (a: Actor) =>
  a.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER' || a.role === 'ROLE_CUSTOMER_ADMIN_USER';
export const isCustomerUser = (a: Actor) => a.role === 'ROLE_CUSTOMER_USER';
/** A reseller admin is a super admin or admin of a customer whose reseller settings are enabled (DESIGN §4). */
export const isResellerAdmin = (a: Actor) => isCustomerAdmin(a) && a.resellerEnabled && a.customerId !== null;
/** The super admin of a reseller: the one who edits its reseller settings (002 §2.1 'Reseller Admin'). */
export const isResellerSuperAdmin = (a: Actor) => isCustomerSuperAdmin(a) && a.resellerEnabled && a.customerId !== null;

/**
 * Route audiences. Every server route declares one; the server refuses a caller outside it before
 * the handler runs, and tenant scoping then limits what an allowed caller can reach.
 */
export const ACCESS_LEVELS = [
  'public',
  'signedIn',
  /** Any user of a customer account (not the provider's own admins). */
  'customerMember',
  'customerAdmin',
  'customerSuperAdmin',
  'resellerAdmin',
  /** The super admin of a customer whose reseller settings are enabled (its own reseller settings). */
  'resellerSuperAdmin',
  /** Those who manage customers: provider admins and reseller admins. */
  'customerManager',
  /**
   * Provider admins and customer (super) admins, resellers' included: the three roles of 001 §6 that may
   * change a machine's status, delete it and refresh its storage space.
   */
  'anyAdmin',
  'providerAdmin',
  /**
   * Only a half-signed-in session (password right, two-factor code not yet given): the second step of
   * sign-in. No signed-in caller and no visitor gets in.
   */
  'mfaPending',
] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export function mayAccess(actor: Actor | null, level: AccessLevel): boolean {
  switch (level) {
    case 'public':
      return true;
    case 'signedIn':
      return actor !== null;
    case 'customerMember':
      return actor !== null && actor.customerId !== null && !isProviderAdmin(actor);
    case 'customerAdmin':
      return actor !== null && isCustomerAdmin(actor);
    case 'customerSuperAdmin':
      return actor !== null && isCustomerSuperAdmin(actor);
    case 'resellerAdmin':
      return actor !== null && isResellerAdmin(actor);
    case 'resellerSuperAdmin':
      return actor !== null && isResellerSuperAdmin(actor);
    case 'customerManager':
      return actor !== null && (isProviderAdmin(actor) || isResellerAdmin(actor));
    case 'anyAdmin':
      return actor !== null && (isProviderAdmin(actor) || isCustomerAdmin(actor));
    case 'providerAdmin':
      return actor !== null && isProviderAdmin(actor);
    case 'mfaPending':
      // The request context lets a half-signed-in session in; an actor is a whole sign-in.
      return false;
  }
}

/**
 * The customers a caller manages (DESIGN §4): the provider every customer, a reseller admin its child
 * customers (not its own: that is the account page's). The customer lists and pages of both take this,
 * and the server's db/scope.ts turns it into the query's condition.
 */
export type ManagedCustomers = { kind: 'all' } | { kind: 'childrenOf'; resellerCustomerId: number };

/** Null for anyone who manages no customers. */
export function managedCustomers(actor: Actor): ManagedCustomers | null {
  if (isProviderAdmin(actor)) return { kind: 'all' };
  if (isResellerAdmin(actor) && actor.customerId !== null) {
    return { kind: 'childrenOf', resellerCustomerId: actor.customerId };
  }
  return null;
}

/** Whether the caller may change things; read-only users look but do not change (DESIGN §4). */
export const mayChange = (a: Actor) => !a.readOnly;

/**
 * Whether the caller may link machines, with e-mail and password or a linking code, and make linking codes
 * (issue #5): users of a customer account who may change things. Provider admins have no customer to link to.
 */
export const mayLinkMachines = (a: Actor) => a.customerId !== null && !isProviderAdmin(a) && mayChange(a);

/** What decides who sees a machine: its customer, the user it is assigned to and its customer's reseller. */
export interface SeenMachine {
  customerId: number;
  assignedUserId: number | null;
  parentResellerCustomerId: number | null;
}

/** What decides who may command a machine: who sees it, and whether its customer allows the provider to. */
export interface CommandedMachine extends SeenMachine {
  allowProviderMachineControl: boolean;
}

/**
 * Who sees a machine and through which links: the provider every machine, a customer's admins its
 * machines, a customer user only the machines assigned to them, a reseller admin its child customers'
 * machines; null for anyone else. The dashboard, the live channel's subscriptions, the tree of files and
 * the machine commands all decide with this one rule.
 */
export function machineAudience(actor: Actor, machine: SeenMachine): Audience | null {
  if (isProviderAdmin(actor)) return 'provider';
  if (machine.customerId === actor.customerId) {
    return !isCustomerUser(actor) || machine.assignedUserId === actor.userId ? 'customer' : null;
  }
  if (isResellerAdmin(actor) && machine.parentResellerCustomerId === actor.customerId) return 'reseller';
  return null;
}

/**
 * Who may command a machine: everyone who sees it, except that the provider needs the customer's 'Allow
 * provider machine control'. Read-only callers pass here; a command that changes something also asks
 * mayChange.
 */
export function mayCommandMachine(actor: Actor, machine: CommandedMachine): boolean {
  if (isProviderAdmin(actor)) return machine.allowProviderMachineControl;
  return machineAudience(actor, machine) !== null;
}

/**
 * Whether the caller manages a machine (001 §2, §6: Manage rather than View; edit needs it): who may
 * command it and may change things.
 */
export function mayManageMachine(actor: Actor, machine: CommandedMachine): boolean {
  return mayChange(actor) && mayCommandMachine(actor, machine);
}

/**
 * Whether the caller may change a machine's status, delete it and refresh its storage space (001 §6: the
 * admin roles, provider admins included, of a machine they see; read-only admins look only).
 */
export function mayAdministerMachine(actor: Actor, machine: SeenMachine): boolean {
  return mayChange(actor) && !isCustomerUser(actor) && machineAudience(actor, machine) !== null;
}
