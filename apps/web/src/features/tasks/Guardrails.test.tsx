import { GUARDRAIL_TEXTS } from '@portal/domain';
import { makeTaskAction } from '@portal/domain/testing/task-action';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok } from '../users/testing';
import { ChangeHoldNotice, RetentionPreviewPanel, RunGuardrailBadges } from './Guardrails';

afterEach(() => vi.unstubAllGlobals());

const TEXT = GUARDRAIL_TEXTS;
const path = { machineId: 3, taskId: 4 };

describe('guard rails on the task page and in the task dialog (issue 32)', () => {
  it('marks an unusual run and a run smaller than usual on their rows', () => {
    renderSignedIn(
      <RunGuardrailBadges
        run={makeTaskAction({ changeAlert: { reasons: ['SHARE'], acknowledged: false }, smallerThanUsual: true })}
      />,
    );
    expect(screen.getByText(TEXT.unusualBadge).closest('[title]')?.getAttribute('title')).toBe(
      TEXT.unusualTitle(['SHARE']),
    );
    expect(screen.getByText(TEXT.smallerBadge)).toBeTruthy();
  });

  it('acknowledges the hold for who may', async () => {
    const server = fakeServer(({ method, url }) =>
      method === 'PUT' && url.pathname === '/backupmachines/3/backuptasks/4/changealert/acknowledge'
        ? ok(null)
        : undefined,
    );
    const hold = { runId: 9, since: '2026-11-09T10:00:00.000Z', acknowledgeable: true };
    renderSignedIn(<ChangeHoldNotice path={path} hold={hold} />);
    expect(screen.getByTestId('change-hold').textContent).toContain(TEXT.holdTitle);
    await userEvent.click(screen.getByRole('button', { name: TEXT.acknowledge }));
    await waitFor(() =>
      expect(server.to('PUT', '/backupmachines/3/backuptasks/4/changealert/acknowledge')).toHaveLength(1),
    );
  });

  it('offers no acknowledgement to who may not', () => {
    renderSignedIn(
      <ChangeHoldNotice path={path} hold={{ runId: 9, since: '2026-11-09T10:00:00.000Z', acknowledgeable: false }} />,
    );
    expect(screen.getByTestId('change-hold')).toBeTruthy();
    expect(screen.queryByRole('button', { name: TEXT.acknowledge })).toBeNull();
  });

  it('lists what the next retention would forget and pins a snapshot', async () => {
    const server = fakeServer(({ method, url }) => {
      if (url.pathname === '/backupmachines/3/backuptasks/4/retentionpreview') {
        return ok({
          keep: Number(url.searchParams.get('keep')),
          forget: [{ snapshotId: 'abcd1234', time: '2026-10-05T10:00:00Z', runId: 7 }],
          kept: 2,
          pinned: 0,
          held: false,
          pinnable: true,
        });
      }
      if (method === 'PUT' && url.pathname === '/backupmachines/3/backuptasks/4/backupruns/7/pin') return ok(null);
      return undefined;
    });
    renderSignedIn(<RetentionPreviewPanel path={path} keep={2} />);
    expect(await screen.findByText('abcd1234')).toBeTruthy();
    expect(server.requests[0]?.url.searchParams.get('keep')).toBe('2');
    expect(screen.getByText(TEXT.previewCounts(2, 0))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: TEXT.pin }));
    await waitFor(() => expect(server.to('PUT', '/backupmachines/3/backuptasks/4/backupruns/7/pin')).toHaveLength(1));
    expect(server.to('PUT', '/backupmachines/3/backuptasks/4/backupruns/7/pin')[0]?.body).toEqual({ pinned: true });
  });
});
