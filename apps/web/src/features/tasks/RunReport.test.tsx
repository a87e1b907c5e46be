import type { RunReport, TaskActionRow } from '@portal/domain';
import { makeRunReport, makeTaskAction, SAMPLE_RUN_SUMMARY } from '@portal/domain/testing/task-action';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { RunHistoryChart } from './RunHistoryChart';
import { RunDetailsButton, RunFigures } from './RunReport';

afterEach(() => vi.unstubAllGlobals());

const summary = { ...SAMPLE_RUN_SUMMARY, durationSeconds: 4 };

const run = (id: number, report: Partial<RunReport> = {}, overrides: Partial<TaskActionRow> = {}) =>
  makeTaskAction({
    id,
    timeStarted: new Date(Date.UTC(2026, 11, 1) + id * 3_600_000).toISOString(),
    timeFinished: new Date(Date.UTC(2026, 11, 1) + id * 3_600_000 + id * 1000).toISOString(),
    report: makeRunReport(report),
    ...overrides,
  });

describe('run report (issue 31)', () => {
  it('shows bytes and files done, speed and time left while the run is busy', () => {
    const progress = { bytesDone: 3 * 1024 * 1024, filesDone: 12, bytesPerSecond: 1024 * 1024, secondsRemaining: 90 };
    renderSignedIn(<RunFigures run={run(1, { progress }, { status: 'IN_PROGRESS', timeFinished: null })} />);
    expect(screen.getByTestId('run-figures')).toHaveTextContent('3 MB done, 12 files, 1 MB/s, 1 min 30 s left');
  });

  it("shows a finished run's files, bytes and speed, and every figure under Details", async () => {
    const report = { snapshotId: 'ab'.repeat(32), bytesAdded: 2048, bytesProcessed: 8 * 1024 * 1024, summary };
    renderSignedIn(
      <>
        <RunFigures run={run(1, report)} />
        <RunDetailsButton run={run(1, report)} />
      </>,
    );
    expect(screen.getByTestId('run-figures')).toHaveTextContent('9 files, 2 KB added, 8 MB processed, 2 MB/s');
    await userEvent.click(screen.getByRole('button', { name: 'Details' }));
    const details = within(await screen.findByRole('table', { name: 'Run details' }));
    for (const [label, value] of [
      ['Snapshot', 'abababab'],
      ['Files', '5 new, 1 changed, 3 unmodified'],
      ['Folders', '2 new, 1 changed, 0 unmodified'],
      ['Added', '2 KB'],
      ['Processed', '8 MB'],
      ['Duration', '4 s'],
      ['Speed', '2 MB/s'],
    ]) {
      expect(details.getByRole('row', { name: `${label} ${value}` })).toBeInTheDocument();
    }
  });

  it('shows nothing for a run without a report (an older agent, a failed start)', () => {
    renderSignedIn(
      <>
        <RunFigures run={run(1)} />
        <RunDetailsButton run={run(1)} />
      </>,
    );
    expect(screen.queryByTestId('run-figures')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Details' })).not.toBeInTheDocument();
  });

  it("charts the task's last 30 finished runs: duration and bytes added, oldest first", async () => {
    const runs = Array.from({ length: 35 }, (_, i) => run(40 - i, { bytesAdded: (40 - i) * 1024 }));
    runs[0] = run(40, {}, { status: 'IN_PROGRESS', timeFinished: null });
    const server = fakeServer(({ url }) =>
      url.pathname === '/backupmachines/3/backuptasks/4/actions' ? ok(paged(runs, url)) : undefined,
    );
    renderSignedIn(
      <RunHistoryChart audience="customer" taskRef={{ customerId: 0, packageId: 0, machineId: 3, taskId: 4 }} />,
    );
    const chart = await screen.findByTestId('run-chart');
    const [duration, bytes] = within(chart).getAllByRole('group');
    // The busy newest run has no bar; the other 29 of the newest 30 do, oldest (run 11) on the left.
    expect(within(duration as HTMLElement).getAllByTestId('bar')).toHaveLength(29);
    const bars = within(bytes as HTMLElement).getAllByTestId('bar');
    expect(bars[0]).toHaveTextContent(/: 11 KB$/);
    expect(bars.at(-1)).toHaveTextContent(/: 39 KB$/);
    expect(
      within(duration as HTMLElement)
        .getAllByTestId('bar')
        .at(-1),
    ).toHaveTextContent(/: 39 s$/);
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(0));
    const asked = server.requests[0]?.url;
    expect(asked?.searchParams.get('type')).toBe('BACKUP_RUN');
    expect(asked?.searchParams.get('size')).toBe('30');
  });
});
