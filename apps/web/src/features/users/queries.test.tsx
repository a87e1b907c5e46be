import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDelayedRefresh } from './queries';

afterEach(() => vi.useRealTimers());

describe('useDelayedRefresh', () => {
  it('bumps the token 500 ms after a change (002 §9), and not after unmount', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDelayedRefresh());
    act(() => result.current.refreshSoon());
    act(() => vi.advanceTimersByTime(499));
    expect(result.current.token).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.token).toBe(1);
    act(() => result.current.refreshSoon());
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
