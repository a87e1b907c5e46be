import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttled } from './liveRefresh';

describe('throttled live refresh', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refreshes at once, then once more at the end of a burst, never more than once per interval', () => {
    const refresh = vi.fn();
    const t = throttled(refresh, 1000, () => Date.now());
    t.signal();
    expect(refresh).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(50);
      t.signal();
    }
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(refresh).toHaveBeenCalledTimes(2);
    t.signal();
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('drops a pending refresh when cancelled (the dashboard was left)', () => {
    const refresh = vi.fn();
    const t = throttled(refresh, 1000, () => Date.now());
    t.signal();
    t.signal();
    t.cancel();
    vi.advanceTimersByTime(2000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
