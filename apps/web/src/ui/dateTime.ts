import { NUMERIC_DATE_TIME } from '@portal/domain';

/**
 * A date and time in the browser's locale, exactly as Date's toLocaleString gives them, from one formatter made on
 * first use: toLocaleString makes a new Intl.DateTimeFormat on each call, about 1 ms on a phone's CPU, and a task
 * page's run chart alone called it sixty times in one render (issue 31, phones).
 */
function cachedFormat(options: Intl.DateTimeFormatOptions): (at: string | number | Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (at) => {
    format ??= new Intl.DateTimeFormat(undefined, options);
    return format.format(new Date(at));
  };
}

/** `new Date(at).toLocaleString()`: toLocaleString's defaults, every field numeric. */
export const localDateTime = cachedFormat(NUMERIC_DATE_TIME);

/** `new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })`. */
export const localDateTimeShort = cachedFormat({ dateStyle: 'medium', timeStyle: 'short' });
