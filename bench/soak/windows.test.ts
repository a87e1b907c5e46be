import { describe, expect, it } from 'vitest';
import { growth, steadyWindows } from './windows.js';

const samples = (count: number, every = 60) => Array.from({ length: count }, (_, i) => ({ at: (i + 1) * every }));

describe('the soak windows', () => {
  it('leaves the warm-up out and compares the first quarter of the rest with the last', () => {
    // An hour, a sample a minute, 10 minutes' warm-up: 51 steady samples, windows of 12.
    const windows = steadyWindows(samples(60), 600);
    expect(windows?.steady).toBe(51);
    expect(windows?.first.map((s) => s.at)).toEqual(Array.from({ length: 12 }, (_, i) => 600 + i * 60));
    expect(windows?.last.map((s) => s.at)).toEqual(Array.from({ length: 12 }, (_, i) => 2_940 + i * 60));
  });

  it('takes one sample a window when there are few, and refuses fewer than two', () => {
    const windows = steadyWindows(samples(3, 10), 20);
    expect(windows?.first.map((s) => s.at)).toEqual([20]);
    expect(windows?.last.map((s) => s.at)).toEqual([30]);
    expect(steadyWindows(samples(3, 10), 30)).toBeNull();
  });

  it('calls growth under 10 % flat, and 10 % or more not', () => {
    expect(growth(100, 109.9).flat).toBe(true);
    expect(growth(100, 80).flat).toBe(true);
    expect(growth(100, 110).flat).toBe(false);
    expect(growth(200, 300).grew).toBeCloseTo(0.5);
  });
});
