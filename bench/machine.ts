import { loadavg } from 'node:os';

/** The machine's 1, 5 and 15 minute load averages, as the benchmarks log them beside a measurement. */
export const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
