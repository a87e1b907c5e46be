import { MESSAGES } from '@portal/domain';
import { type KeyboardEvent, type ReactNode, useId, useReducer, useRef } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { liveSideOf } from '../../app/live';
import { useSession } from '../../app/session';
import { Page } from '../../ui';
import { LinkMachineButton } from '../machine-link/LinkMachineDialog';
import { VerificationPanel } from '../verification/VerificationPanel';
import { AttentionList } from './AttentionList';
import {
  type DashboardAction,
  type DashboardAudience,
  type DashboardState,
  dashboardAudience,
  dashboardReducer,
  initialDashboardState,
  machineCalls,
  openTabs,
  type TabKey,
  tabTitle,
} from './dashboardState';
import { GettingStartedStrip } from './GettingStartedStrip';
import { useLiveDashboardRefresh } from './liveRefresh';
import { NextSteps } from './NextSteps';
import { CustomersPanel, MachinesPanel, TasksPanel } from './panels';
import { useAttention, useFirstAnswersIn } from './queries';

interface TabsProps {
  tabs: Array<{ key: TabKey; title: string; closable: boolean; panel: ReactNode }>;
  active: TabKey;
  onActivate: (tab: TabKey) => void;
  onClose: (tab: TabKey) => void;
}

/**
 * Closable tabs (000 §2). Every open tab's panel stays mounted while another tab is shown, so its page,
 * sort and filter survive switching; a closed tab's panel unmounts and forgets them.
 */
function DashboardTabs({ tabs, active, onActivate, onClose }: TabsProps) {
  const id = useId();
  const tabRefs = useRef(new Map<TabKey, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const tab = target === null ? undefined : tabs[target];
    if (!tab) return;
    event.preventDefault();
    onActivate(tab.key);
    tabRefs.current.get(tab.key)?.focus();
  };

  return (
    <>
      <div className="nav nav-tabs" role="tablist">
        {tabs.map((tab, index) => {
          const selected = tab.key === active;
          return (
            <div key={tab.key} className="nav-item dashboard-tab" role="presentation">
              <button
                ref={(element) => {
                  if (element) tabRefs.current.set(tab.key, element);
                  else tabRefs.current.delete(tab.key);
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${tab.key}`}
                aria-controls={`${id}-panel-${tab.key}`}
                aria-selected={selected}
                tabIndex={selected ? 0 : -1}
                className={`nav-link${selected ? ' active' : ''}${tab.closable ? ' closable' : ''}`}
                onClick={() => onActivate(tab.key)}
                onKeyDown={(event) => onKeyDown(event, index)}
              >
                {tab.title}
              </button>
              {tab.closable && (
                <button
                  type="button"
                  className="btn-close"
                  aria-label={`${MESSAGES.dashboard.closeTab} ${tab.title}`}
                  title={MESSAGES.dashboard.closeTab}
                  onClick={() => onClose(tab.key)}
                />
              )}
            </div>
          );
        })}
      </div>
      <div className="border border-top-0 rounded-bottom bg-white p-3">
        {tabs.map((tab) => (
          <div
            key={tab.key}
            role="tabpanel"
            id={`${id}-panel-${tab.key}`}
            aria-labelledby={`${id}-tab-${tab.key}`}
            hidden={tab.key !== active}
          >
            {tab.panel}
          </div>
        ))}
      </div>
    </>
  );
}

function panelOf(
  tab: TabKey,
  title: string,
  state: DashboardState,
  audience: DashboardAudience,
  dispatch: (action: DashboardAction) => void,
): ReactNode {
  if (tab === 'customers') {
    return (
      <>
        {audience.customersPage !== null && (
          <div className="d-flex justify-content-end mb-2">
            <Link className="btn btn-sm btn-outline-primary" to={audience.customersPage}>
              {MESSAGES.customer.myCustomersLink}
            </Link>
          </div>
        )}
        <CustomersPanel
          title={title}
          selectAll={audience.selectAll}
          selectedId={state.customer?.id ?? null}
          onSelect={(customer) => dispatch({ type: 'selectCustomer', customer })}
          onUnselect={() => dispatch({ type: 'unselectCustomer' })}
        />
      </>
    );
  }
  if (tab === 'machines' && state.customer) {
    const calls = machineCalls(state, state.customer.id);
    return (
      <>
        {/* Customer accounts' own machines tab: linking a machine with a one-time code (issue #5). */}
        {audience.root === 'machines' && (
          <div className="d-flex justify-content-end mb-2">
            <LinkMachineButton />
          </div>
        )}
        {/* A new customer is a new scope: its table starts again on page 1, unfiltered. */}
        <MachinesPanel
          key={calls.list.path}
          title={title}
          list={calls.list}
          counts={calls.counts}
          selectedId={state.machine?.id ?? null}
          onSelect={(machine) => dispatch({ type: 'selectMachine', machine })}
          onUnselect={() => dispatch({ type: 'unselectMachine' })}
        />
      </>
    );
  }
  if (tab === 'tasks' && state.machine) {
    return <TasksPanel key={state.machine.id} title={title} machineId={state.machine.id} />;
  }
  return null;
}

/**
 * The dashboard (000 §2): up to three tabs (customers, a customer's machines, a machine's tasks),
 * each with its pie charts and a paged, sortable table, and the getting-started strip for customer
 * accounts. The server scopes every answer to the caller; the audience only decides the tabs.
 */
export function DashboardPage() {
  const { data, actor } = useSession();
  const companyName = data.user?.companyName ?? null;
  useLiveDashboardRefresh(actor && liveSideOf(actor));
  return (
    <Page title="Dashboard" subtitle={companyName ?? data.branding?.brandName ?? undefined}>
      {actor && <Overview audience={dashboardAudience(actor, companyName)} customer={actor.customerId !== null} />}
    </Page>
  );
}

/**
 * What needs attention above the tabs; a customer account without a machine sees its next steps instead of
 * empty pies (issue 31). The whole overview (with a customer's getting-started strip) shows once its first
 * answers are in (useFirstAnswersIn): the tabs' reads start with it, laid out hidden meanwhile, so empty pies never
 * flash and nothing moves when the attention list arrives above them.
 */
function Overview({ audience, customer }: { audience: DashboardAudience; customer: boolean }) {
  const attention = useAttention();
  const shown = useFirstAnswersIn(attention.data !== undefined || attention.isError);
  const nextSteps = audience.root === 'machines' && attention.data?.hasMachines === false;
  return (
    <>
      {!shown && <Spinner animation="border" role="status" />}
      <div hidden={!shown}>
        <GettingStartedStrip enabled={customer} />
        {attention.data && !nextSteps && <AttentionList list={attention.data} />}
        {!nextSteps && <VerificationPanel />}
        {nextSteps ? <NextSteps /> : <Dashboard audience={audience} />}
      </div>
    </>
  );
}

function Dashboard({ audience }: { audience: DashboardAudience }) {
  const [state, dispatch] = useReducer(dashboardReducer, audience, initialDashboardState);
  const tabs = openTabs(state).map((key) => {
    const title = tabTitle(key, state, audience);
    return { key, title, closable: key !== state.root, panel: panelOf(key, title, state, audience, dispatch) };
  });
  return (
    <DashboardTabs
      tabs={tabs}
      active={state.active}
      onActivate={(tab) => dispatch({ type: 'activate', tab })}
      onClose={(tab) => dispatch({ type: 'closeTab', tab })}
    />
  );
}
