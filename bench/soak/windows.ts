// The soak's verdict (issue 33 item 9): RSS and the dashboard's p99 flat, growth under 10 % from the first steady
// window to the last. The samples of the warm-up are left out; the first and the last quarter of the rest (at least
// one sample each) are the windows, so one odd sample moves a window's median little.

export const MAX_GROWTH = 0.1;

export interface Windows<T> {
  first: T[];
  last: T[];
  /** How many samples came after the warm-up. */
  steady: number;
}

/** The first and last window of the samples taken at or after `warmupSeconds`; null with fewer than two. */
export function steadyWindows<T extends { at: number }>(
  samples: readonly T[],
  warmupSeconds: number,
): Windows<T> | null {
  const steady = samples.filter((s) => s.at >= warmupSeconds);
  if (steady.length < 2) return null;
  const size = Math.max(1, Math.floor(steady.length / 4));
  return { first: steady.slice(0, size), last: steady.slice(-size), steady: steady.length };
}

/** How much `last` grew over `first` (0.1: 10 %), and whether that is flat enough. */
export function growth(first: number, last: number): { grew: number; flat: boolean } {
  const grew = last / first - 1;
  return { grew, flat: grew < MAX_GROWTH };
}
