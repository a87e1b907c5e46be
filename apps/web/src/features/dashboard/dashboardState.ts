import {
  type Actor,
  isProviderAdmin,
  isResellerAdmin,
  MESSAGES,
  machinesTabTitle,
  machineTasksTitle,
  PAGES,
  ROUTES,
} from '@portal/domain';
import { type RouteCall, routeCall } from '../../app/api';

/** The dashboard's tabs, left to right (000 §2). */
export type TabKey = 'customers' | 'machines' | 'tasks';
const TAB_ORDER: readonly TabKey[] = ['customers', 'machines', 'tasks'];

/**
 * What the dashboard shows to whom (000 §2, §6): provider and reseller admins start on the customers
 * tab ('Customers' or 'My Customers'; Select All for provider admins only); customer audiences have
 * no customers tab and start on the machines tab of their own customer, which they cannot close.
 */
export interface DashboardAudience {
  /** The first tab, which cannot be closed. */
  root: 'customers' | 'machines';
  customersTitle: string;
  selectAll: boolean;
  /** The preselected own customer of customer audiences; null when the customers tab is shown. */
  ownCustomer: SelectedCustomer | null;
  /** Resellers' way to their customers pages (the sidebar of 002 §2.1 has no entry for it); else null. */
  customersPage: string | null;
}

export interface SelectedCustomer {
  id: number;
  name: string | null;
}

export interface SelectedMachine {
  id: number;
  name: string;
}

export function dashboardAudience(actor: Actor, companyName: string | null): DashboardAudience {
  if (isProviderAdmin(actor)) {
    return {
      root: 'customers',
      customersTitle: MESSAGES.dashboard.customersTitle,
      selectAll: true,
      ownCustomer: null,
      customersPage: null,
    };
  }
  if (isResellerAdmin(actor)) {
    return {
      root: 'customers',
      customersTitle: MESSAGES.dashboard.myCustomersTitle,
      selectAll: false,
      ownCustomer: null,
      customersPage: PAGES.resellerCustomers,
    };
  }
  return {
    root: 'machines',
    customersTitle: MESSAGES.dashboard.customersTitle,
    selectAll: false,
    ownCustomer: { id: actor.customerId ?? 0, name: companyName },
    customersPage: null,
  };
}

export interface DashboardState {
  root: 'customers' | 'machines';
  active: TabKey;
  customer: SelectedCustomer | null;
  machine: SelectedMachine | null;
}

export type DashboardAction =
  | { type: 'selectCustomer'; customer: SelectedCustomer }
  | { type: 'unselectCustomer' }
  | { type: 'selectMachine'; machine: SelectedMachine }
  | { type: 'unselectMachine' }
  | { type: 'closeTab'; tab: TabKey }
  | { type: 'activate'; tab: TabKey };

export function initialDashboardState(audience: DashboardAudience): DashboardState {
  return { root: audience.root, active: audience.root, customer: audience.ownCustomer, machine: null };
}

/** The open tabs, left to right: customers (when it is the root), machines (a customer), tasks (a machine). */
export function openTabs(state: DashboardState): TabKey[] {
  return TAB_ORDER.filter((tab) => {
    if (tab === 'customers') return state.root === 'customers';
    if (tab === 'machines') return state.customer !== null;
    return state.machine !== null;
  });
}

/** After tabs closed, the active tab is kept if still open, else the rightmost open one. */
function keepActive(state: DashboardState): DashboardState {
  const open = openTabs(state);
  return open.includes(state.active) ? state : { ...state, active: open[open.length - 1] ?? state.root };
}

/**
 * Tab behaviour of 000 §2: selecting a customer opens (or re-targets) the machines tab and switches
 * to it, closing the tasks tab of the previous customer; selecting a machine opens the tasks tab and
 * switches to it; unselecting closes the tabs that depend on the selection; closing a tab clears its
 * selection and closes the tabs to its right. The root tab cannot be closed. The filters live in the
 * tabs' panels, which unmount when their tab closes, so closing a tab also clears its filters.
 */
export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'selectCustomer':
      if (state.root !== 'customers') return state;
      return { ...state, customer: action.customer, machine: null, active: 'machines' };
    case 'unselectCustomer':
      if (state.root !== 'customers') return state;
      return keepActive({ ...state, customer: null, machine: null });
    case 'selectMachine':
      if (state.customer === null) return state;
      return { ...state, machine: action.machine, active: 'tasks' };
    case 'unselectMachine':
      return keepActive({ ...state, machine: null });
    case 'closeTab':
      if (action.tab === state.root) return state;
      if (action.tab === 'machines') return keepActive({ ...state, customer: null, machine: null });
      if (action.tab === 'tasks') return keepActive({ ...state, machine: null });
      return state;
    case 'activate':
      return openTabs(state).includes(action.tab) ? { ...state, active: action.tab } : state;
  }
}

/** Tab titles (000 §2). */
export function tabTitle(tab: TabKey, state: DashboardState, audience: DashboardAudience): string {
  if (tab === 'customers') return audience.customersTitle;
  if (tab === 'machines') {
    const customer = state.customer;
    return customer
      ? machinesTabTitle({ customerId: customer.id, customerName: customer.name })
      : MESSAGES.dashboard.machinesTitle;
  }
  return state.machine ? machineTasksTitle(state.machine.name) : '';
}

export interface MachineCalls {
  list: RouteCall<typeof ROUTES.dashboard.ownMachines | typeof ROUTES.dashboard.customerMachines>;
  counts: RouteCall<typeof ROUTES.dashboard.ownMachineCounts | typeof ROUTES.dashboard.customerMachineCounts>;
}

/** The machines list and its counts: the own customer's for customer audiences, else the selected customer's. */
export function machineCalls(state: DashboardState, customerId: number): MachineCalls {
  const r = ROUTES.dashboard;
  if (state.root === 'machines')
    return { list: routeCall(r.ownMachines, {}), counts: routeCall(r.ownMachineCounts, {}) };
  return {
    list: routeCall(r.customerMachines, { customerId }),
    counts: routeCall(r.customerMachineCounts, { customerId }),
  };
}
