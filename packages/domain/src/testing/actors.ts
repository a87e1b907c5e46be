/** Test-only: the caller and the machine the permission rules read (permissions.ts), one story for every test. */
import type { Actor, CommandedMachine } from '../permissions.js';

/** User 1 of customer 10, a direct customer of the provider, who may change things; `overrides` on top. */
export function makeActor(overrides: Partial<Actor> = {}): Actor {
  return {
    userId: 1,
    role: 'ROLE_CUSTOMER_USER',
    customerId: 10,
    resellerEnabled: false,
    boltCustomer: true,
    readOnly: false,
    ...overrides,
  };
}

/**
 * A machine of customer 10, a child of reseller 20, assigned to user 1, without the customer's 'Allow provider
 * machine control'; `overrides` on top.
 */
export function makeMachine(overrides: Partial<CommandedMachine> = {}): CommandedMachine {
  return {
    customerId: 10,
    assignedUserId: 1,
    parentResellerCustomerId: 20,
    allowProviderMachineControl: false,
    ...overrides,
  };
}
