import { RESTORE_TEST_TEXTS, type RestoreTestRow, type RestoreTestSummary } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { RestoreTestSection } from './RestoreTestSection';

afterEach(() => vi.unstubAllGlobals());

const row = (overrides: Partial<RestoreTestRow> = {}): RestoreTestRow => ({
  id: 9,
  outcome: 'MISMATCH',
  manual: false,
  startedAt: '2026-12-01T02:00:00.000Z',
  finishedAt: '2026-12-01T02:01:00.000Z',
  snapshotId: 'a'.repeat(64),
  filesTested: 100,
  bytesTested: 2048,
  changedFilesTested: 4,
  durationMs: 61_000,
  mismatchCount: 2,
  mismatches: [{ path: '/docs/a.txt', kind: 'CONTENT' }],
  message: null,
  ...overrides,
});

function serve(summary: RestoreTestSummary, history: RestoreTestRow[]) {
  return fakeServer(({ method, url }) => {
    const base = '/backupmachines/3/backuptasks/4/restoretests';
    if (method === 'GET' && url.pathname === `${base}/latest`) return ok(summary);
    if (method === 'GET' && url.pathname === base) return ok(paged(history, url));
    return undefined;
  });
}

describe('the restore test section', () => {
  it('shows the last test with what it found, the history, and why a test cannot start now', async () => {
    serve({ latest: row(), startReason: RESTORE_TEST_TEXTS.noSnapshot, intervalDays: 30 }, [row()]);
    renderSignedIn(<RestoreTestSection taskRef={{ machineId: 3, taskId: 4 }} />);
    const latest = await screen.findByRole('table', { name: 'Last restore test' });
    expect(within(latest).getByText('Mismatch')).toBeInTheDocument();
    expect(within(latest).getByText('100 files (4 changed in the last run), 2 KB')).toBeInTheDocument();
    expect(within(latest).getByText('/docs/a.txt: content differs')).toBeInTheDocument();
    expect(within(latest).getByText('1 more')).toBeInTheDocument();
    expect(within(latest).getByText(RESTORE_TEST_TEXTS.scheduled)).toBeInTheDocument();
    expect(screen.getByText('Every 30 days')).toBeInTheDocument();
    expect(screen.getByTestId('start-restore-test')).toBeDisabled();
    expect(await screen.findByRole('table', { name: RESTORE_TEST_TEXTS.history })).toBeInTheDocument();
  });

  it('says when no test ran yet', async () => {
    serve({ latest: null, startReason: null, intervalDays: 7 }, []);
    renderSignedIn(<RestoreTestSection taskRef={{ machineId: 3, taskId: 4 }} />);
    expect(await screen.findByTestId('restore-test-never')).toHaveTextContent(RESTORE_TEST_TEXTS.never);
    expect(screen.getByTestId('start-restore-test')).toBeEnabled();
  });
});
