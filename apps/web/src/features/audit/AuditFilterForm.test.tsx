import { AUDIT_TEXTS, EMPTY_AUDIT_FILTER } from '@portal/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuditFilterForm } from './AuditFilterForm';

const L = AUDIT_TEXTS.labels;

describe('AuditFilterForm', () => {
  it('sends the filter with times as ISO and empty fields left out', async () => {
    const onApply = vi.fn();
    render(<AuditFilterForm withTenant viewer="provider" initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(L.from), '2026-01-02T03:04');
    await user.type(screen.getByLabelText(L.email), 'ann@x.test');
    await user.selectOptions(screen.getByLabelText(L.kind), 'customers.provider.remove');
    await user.selectOptions(screen.getByLabelText(L.subjectType), 'machine');
    await user.type(screen.getByLabelText(L.subjectId), '12');
    await user.selectOptions(screen.getByLabelText(L.outcome), 'refused');
    await user.type(screen.getByLabelText(L.customerId), '4');
    await user.click(screen.getByTestId('audit-apply'));
    await waitFor(() => expect(onApply).toHaveBeenCalledTimes(1));
    expect(onApply.mock.calls[0]?.[0]).toEqual({
      from: new Date('2026-01-02T03:04').toISOString(),
      to: undefined,
      email: 'ann@x.test',
      kind: 'customers.provider.remove',
      subjectType: 'machine',
      subjectId: 12,
      outcome: 'refused',
      customerId: 4,
    });
  });

  it("shows the server schema's messages on their fields and sends nothing", async () => {
    const onApply = vi.fn();
    render(<AuditFilterForm withTenant={false} viewer="customer" initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
    const user = userEvent.setup();
    expect(screen.queryByLabelText(L.customerId)).toBeNull();
    await user.type(screen.getByLabelText(L.subjectId), 'twelve');
    await user.click(screen.getByTestId('audit-apply'));
    await waitFor(() => expect(screen.getByLabelText(L.subjectId)).toHaveClass('is-invalid'));
    await user.clear(screen.getByLabelText(L.subjectId));
    await user.type(screen.getByLabelText(L.from), '2026-05-02T00:00');
    await user.type(screen.getByLabelText(L.to), '2026-05-01T00:00');
    await user.click(screen.getByTestId('audit-apply'));
    expect(await screen.findByText('From must be before To')).toBeInTheDocument();
    expect(onApply).not.toHaveBeenCalled();
  });

  it("offers kinds by their labels, grouped by area, and a customer none of the provider's own", async () => {
    const { unmount } = render(
      <AuditFilterForm withTenant={false} viewer="customer" initial={EMPTY_AUDIT_FILTER} onApply={vi.fn()} />,
    );
    const kind = screen.getByLabelText(L.kind);
    const groups = [...kind.querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(expect.arrayContaining(['Sign-in and security', 'Users', 'Machines', 'Tasks and restores']));
    const users = kind.querySelector('optgroup[label="Users"]');
    expect(within(users as HTMLElement).getByRole('option', { name: 'User added' })).toHaveValue('users.add');
    expect(screen.queryByRole('option', { name: 'Billing server changed' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Storage account added' })).toBeNull();
    // No option reads like a route key.
    for (const option of within(kind).getAllByRole('option')) expect(option.textContent).not.toMatch(/\w\.\w/);
    unmount();

    render(<AuditFilterForm withTenant viewer="provider" initial={EMPTY_AUDIT_FILTER} onApply={vi.fn()} />);
    const billing = screen.getByLabelText(L.kind).querySelector('optgroup[label="Billing"]');
    expect(within(billing as HTMLElement).getByRole('option', { name: 'Billing server changed' })).toHaveValue(
      'billing.editServer',
    );
    expect(screen.getByRole('option', { name: 'Storage account' })).toHaveValue('storageAccount');
  });

  it('clears every field and the filter', async () => {
    const onApply = vi.fn();
    render(<AuditFilterForm withTenant={false} viewer="customer" initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(L.email), 'ann@x.test');
    await user.click(screen.getByTestId('audit-clear'));
    expect(screen.getByLabelText(L.email)).toHaveValue('');
    expect(onApply).toHaveBeenCalledWith({});
  });
});
