import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from './SearchBox';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const type = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: text } });

describe('SearchBox', () => {
  it('searches once typing pauses, with the text trimmed', () => {
    const onSearch = vi.fn();
    render(<SearchBox label="Search" onSearch={onSearch} delayMs={300} />);
    type('ac');
    act(() => vi.advanceTimersByTime(200));
    type(' acme ');
    act(() => vi.advanceTimersByTime(299));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('acme');
  });

  it('does not search on opening, nor again for the same text', () => {
    const onSearch = vi.fn();
    render(<SearchBox label="Search" onSearch={onSearch} delayMs={300} />);
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).not.toHaveBeenCalled();
    type('acme');
    act(() => vi.advanceTimersByTime(300));
    type('acme ');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenCalledTimes(1);
    type('');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenLastCalledWith('');
  });
});
