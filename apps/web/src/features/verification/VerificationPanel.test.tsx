import { VERIFICATION_TEXTS, type VerificationTaskRow } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { VerificationSummary } from './Verification';
import { VerificationPanel } from './VerificationPanel';

afterEach(() => vi.unstubAllGlobals());

const TEXT = VERIFICATION_TEXTS;
const failed: VerificationTaskRow = {
  taskId: 7,
  taskName: 'Mail archive',
  machineName: 'PC-7',
  customerName: 'Contoso Ltd',
  backupTaskUrl: '/backupmachines/3/backuptasks/7',
  verification: {
    status: 'FAILED',
    lastRestoreTestAt: null,
    lastRestoreTestFiles: null,
    lastFullReadAt: '2026-05-20T08:00:00.000Z',
  },
};

describe('VerificationPanel (issue 32 item 3)', () => {
  it('shows the count per status and lists the tasks of the one chosen, again to hide them', async () => {
    const server = fakeServer(({ url }) => {
      if (url.pathname === '/dashboard/verification/counts') {
        return ok({ VERIFIED: 5, OVERDUE: 2, FAILED: 1, NEVER: 9, attention: 3 });
      }
      if (url.pathname === '/dashboard/verification/tasks') {
        return ok(paged(url.searchParams.get('status') === 'FAILED' ? [failed] : [], url));
      }
      return undefined;
    });
    renderSignedIn(
      <MemoryRouter>
        <VerificationPanel />
      </MemoryRouter>,
    );
    const panel = await screen.findByRole('region', { name: TEXT.title });
    const filter = within(panel).getByRole('group', { name: TEXT.filterLabel });
    const failedButton = within(filter).getByRole('button', { name: `${TEXT.status.FAILED} 1` });
    expect(within(filter).getByRole('button', { name: `${TEXT.status.NEVER} 9` })).toBeInTheDocument();
    // Nothing listed until a status is chosen.
    expect(server.to('GET', '/dashboard/verification/tasks')).toHaveLength(0);

    await userEvent.click(failedButton);
    expect(failedButton).toHaveAttribute('aria-pressed', 'true');
    const table = await within(panel).findByRole('table', { name: `${TEXT.title}: ${TEXT.status.FAILED}` });
    expect(await within(table).findByRole('link', { name: 'Mail archive' })).toHaveAttribute(
      'href',
      '/backupmachines/3/backuptasks/7',
    );
    expect(within(table).getByTestId('last-verified')).toHaveTextContent(TEXT.fullReadHow);
    expect(server.to('GET', '/dashboard/verification/tasks').at(-1)?.url.searchParams.get('status')).toBe('FAILED');

    await userEvent.click(failedButton);
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('VerificationSummary', () => {
  it('says when the backups were last proved restorable and read in full, or never', () => {
    renderSignedIn(
      <VerificationSummary
        verification={{
          status: 'VERIFIED',
          lastRestoreTestAt: '2026-06-01T10:00:00.000Z',
          lastRestoreTestFiles: 1,
          lastFullReadAt: null,
        }}
      />,
    );
    const summary = screen.getByTestId('verification-summary');
    expect(within(summary).getByText(TEXT.status.VERIFIED)).toBeInTheDocument();
    expect(summary).toHaveTextContent(TEXT.restoreTestHow(1));
    expect(within(summary).getByText(TEXT.never)).toBeInTheDocument();
  });
});
