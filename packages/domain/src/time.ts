/**
 * Milliseconds per unit of time, for arithmetic on epoch milliseconds (schedules, the demo's and the
 * benchmark's generated history). Calendar units (months, years) have no fixed length and are not here.
 */
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Every field of a date and time, numeric: what Date's toLocaleString shows when given no options. */
export const NUMERIC_DATE_TIME: Readonly<Intl.DateTimeFormatOptions> = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};
