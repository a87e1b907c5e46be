import { DATA_CHECK_OUTCOME_BADGES, DATA_CHECK_TEXTS, dataCheckRepairSteps, type TaskDataCheck } from '@portal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, ok } from '../users/testing';
import { DataCheckSection } from './DataCheckSection';

afterEach(() => vi.unstubAllGlobals());

const ref = { customerId: 1, packageId: 2, machineId: 3, taskId: 4 };
const damaged: TaskDataCheck = {
  last: {
    checkedAt: '2026-12-07T05:00:00.000Z',
    subset: '2/6',
    outcome: 'FAILED',
    errors: ['Pack ID does not match, want b1bade59, got aa31578e'],
    bytesRead: 3 * 1024 * 1024,
    durationMs: 4200,
  },
  repair: dataCheckRepairSteps(false),
  checking: false,
  checkable: false,
};

function serve(path: string, answer: TaskDataCheck) {
  return fakeServer(({ method, url }) => (method === 'GET' && url.pathname === path ? ok(answer) : undefined));
}

describe('the task page’s data check (issue 32)', () => {
  it('shows when the repository was last checked, how it ended, what was read and found', async () => {
    serve('/backupmachines/3/backuptasks/4/datacheck', { ...damaged, repair: null });
    renderSignedIn(<DataCheckSection audience="customer" taskRef={ref} />);
    const summary = await screen.findByTestId('data-check-summary');
    expect(within(summary).getByTestId('status-badge')).toHaveTextContent(DATA_CHECK_OUTCOME_BADGES.FAILED.text);
    expect(summary).toHaveTextContent(new Date('2026-12-07T05:00:00.000Z').toLocaleString());
    expect(summary).toHaveTextContent('2/6');
    expect(summary).toHaveTextContent('3 MB');
    expect(screen.getByTestId('data-check-errors')).toHaveTextContent('Pack ID does not match');
    // A customer is told of the damage; the repair is the provider's.
    expect(screen.queryByTestId('data-check-repair')).toBeNull();
  });

  it("offers the provider's admins the repair path after damage", async () => {
    serve('/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/datacheck', damaged);
    renderSignedIn(<DataCheckSection audience="provider" taskRef={ref} />);
    const repair = await screen.findByTestId('data-check-repair');
    expect(repair).toHaveTextContent(dataCheckRepairSteps(false).title);
    expect(
      within(repair)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(dataCheckRepairSteps(false).steps);
  });

  it('says when the repository was never checked', async () => {
    serve('/backupmachines/3/backuptasks/4/datacheck', { last: null, repair: null, checking: false, checkable: false });
    renderSignedIn(<DataCheckSection audience="customer" taskRef={ref} />);
    expect(await screen.findByTestId('data-check')).toHaveTextContent(DATA_CHECK_TEXTS.never);
    expect(screen.queryByRole('button', { name: DATA_CHECK_TEXTS.checkNow })).toBeNull();
  });

  it('lets the provider check all the data now: says it is checking until the result is there', async () => {
    const path = '/boltadmin/customers/1/backuppackages/2/backupmachines/3/backuptasks/4/datacheck';
    let state: TaskDataCheck = { ...damaged, checkable: true };
    const server = fakeServer(({ method, url }) => {
      if (url.pathname !== path) return undefined;
      if (method === 'POST') state = { ...state, checking: true };
      return ok(state);
    });
    renderSignedIn(
      <>
        <DataCheckSection audience="provider" taskRef={ref} />
        <ToastHost />
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: DATA_CHECK_TEXTS.checkNow }));
    const dialog = await screen.findByTestId('check-data-dialog');
    expect(dialog).toHaveTextContent(DATA_CHECK_TEXTS.checkNowQuestion);
    fireEvent.click(within(dialog).getByRole('button', { name: DATA_CHECK_TEXTS.checkNow }));
    expect(await screen.findByText(DATA_CHECK_TEXTS.checkStarted)).toBeInTheDocument();
    expect(server.to('POST', path)).toHaveLength(1);
    expect(await screen.findByTestId('data-check-checking')).toHaveTextContent(DATA_CHECK_TEXTS.checking);
    await waitFor(() => expect(screen.queryByTestId('check-data-dialog')).toBeNull());
    expect(screen.getByRole('button', { name: DATA_CHECK_TEXTS.checkNow })).toBeDisabled();

    // The job ends the check: the section, asking again meanwhile, shows its result.
    state = {
      ...state,
      checking: false,
      repair: null,
      last: { ...damaged.last, subset: '1/1', outcome: 'PASSED', errors: [] } as TaskDataCheck['last'],
    };
    await waitFor(() => expect(screen.queryByTestId('data-check-checking')).toBeNull(), { timeout: 5000 });
    expect(screen.getByTestId('data-check-summary')).toHaveTextContent('1/1');
    expect(screen.queryByTestId('data-check-repair')).toBeNull();
  });
});
