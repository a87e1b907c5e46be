import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pager, pageWindow } from './Pager';

function pageNumbers(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Pagination' });
  return within(nav)
    .getAllByLabelText(/^Page \d+$/)
    .map((b) => b.textContent ?? '');
}

describe('Pager', () => {
  it('renders nothing when there is at most one page', () => {
    const { container } = render(<Pager page={0} totalPages={1} onPageChange={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('marks the current page with aria-current and numbers pages from 1', () => {
    render(<Pager page={2} totalPages={4} onPageChange={vi.fn()} />);
    // The current page is marked, and is not a button: there is nowhere to go.
    expect(screen.getByLabelText('Page 3')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: 'Page 3' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Page 2' })).not.toHaveAttribute('aria-current');
    expect(pageNumbers()).toEqual(['1', '2', '3', '4']);
  });

  it('shows a window of pages around the current one, clamped at both ends', () => {
    const { rerender } = render(<Pager page={0} totalPages={20} onPageChange={vi.fn()} />);
    expect(pageNumbers()).toEqual(['1', '2', '3', '4', '5']);
    rerender(<Pager page={10} totalPages={20} onPageChange={vi.fn()} />);
    expect(pageNumbers()).toEqual(['9', '10', '11', '12', '13']);
    rerender(<Pager page={19} totalPages={20} onPageChange={vi.fn()} />);
    expect(pageNumbers()).toEqual(['16', '17', '18', '19', '20']);
    expect(pageWindow(1, 3, 5)).toEqual([0, 1, 2]);
  });

  it('reports zero-based pages for first, previous, numbered, next and last', async () => {
    const onPageChange = vi.fn();
    render(<Pager page={5} totalPages={10} onPageChange={onPageChange} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await user.click(screen.getByRole('button', { name: 'Page 7' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onPageChange.mock.calls).toEqual([[0], [4], [6], [6], [9]]);
  });

  it('disables moving before the first and after the last page', () => {
    const { rerender } = render(<Pager page={0} totalPages={3} onPageChange={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'First page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous page' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeInTheDocument();
    rerender(<Pager page={2} totalPages={3} onPageChange={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Last page' })).toBeNull();
    expect(screen.getByRole('button', { name: 'First page' })).toBeInTheDocument();
  });
});
