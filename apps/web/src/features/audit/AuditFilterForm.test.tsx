import { AUDIT_TEXTS, EMPTY_AUDIT_FILTER } from '@portal/domain';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuditFilterForm } from './AuditFilterForm';

const L = AUDIT_TEXTS.labels;

describe('AuditFilterForm', () => {
  it('sends the filter with times as ISO and empty fields left out', async () => {
    const onApply = vi.fn();
    render(<AuditFilterForm withTenant initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
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
    render(<AuditFilterForm withTenant={false} initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
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

  it('clears every field and the filter', async () => {
    const onApply = vi.fn();
    render(<AuditFilterForm withTenant={false} initial={EMPTY_AUDIT_FILTER} onApply={onApply} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(L.email), 'ann@x.test');
    await user.click(screen.getByTestId('audit-clear'));
    expect(screen.getByLabelText(L.email)).toHaveValue('');
    expect(onApply).toHaveBeenCalledWith({});
  });
});
