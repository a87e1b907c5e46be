import { z } from 'zod';
import { type CronSyntaxMessage, cronElements, neverRuns, parseCron, SCHEDULE_MESSAGES } from './syntax.js';

/**
 * Whether an expression is "the default every-second pattern" of 002 §5.6: what the picker holds before
 * anything is chosen, i.e. every field unrestricted. Written '* * * * * *' in the six-field Unix form
 * (the seconds field '*', every second) and '* * * * *' in five fields; equivalent spellings count too
 * ('*\/1', '0-59', '0-7', 'JAN-DEC', any seconds field, any white space). A schedule that runs every
 * minute of every day cannot be told apart from the untouched picker, and is never a sensible backup
 * schedule, so the task form refuses all of them with 'Please select a schedule for this task.'
 */
export function isDefaultSchedulePattern(expression: string): boolean {
  const elements = cronElements(expression);
  if (elements.length === 6) {
    // The seconds field may be anything valid here ('*' included): only the five time fields decide.
    if (!validSecondsField(elements[0] ?? '')) return false;
    elements.shift();
  }
  if (elements.length !== 5) return false;
  const parsed = parseCron(elements.join(' '));
  if (!parsed.ok) return false;
  const s = parsed.schedule;
  return (
    s.minutes.length === 60 &&
    s.hours.length === 24 &&
    !s.dayOfMonthRestricted &&
    s.months.length === 12 &&
    !s.dayOfWeekRestricted
  );
}

/** Whether a seconds field parses (as a minute field: same grammar, same 0..59 range). */
function validSecondsField(text: string): boolean {
  return parseCron(`${text} * * * *`).ok;
}

/**
 * The task form's schedule rule (002 §5.6), in order: empty or the default pattern → 'Please select a
 * schedule for this task.'; a wrong field count or a field that does not parse → the picker's message
 * (000 §5); a schedule that can never run → SCHEDULE_MESSAGES.neverRuns (our addition). Null when valid.
 */
export function backupScheduleError(expression: string): string | null {
  if (expression.trim() === '' || isDefaultSchedulePattern(expression)) return SCHEDULE_MESSAGES.selectSchedule;
  const parsed = parseCron(expression);
  if (!parsed.ok) return parsed.message;
  return neverRuns(parsed.schedule) ? SCHEDULE_MESSAGES.neverRuns : null;
}

/**
 * The picker's own check (000 §5): five fields (or the six-field Unix variant) that all parse, else
 * 'Bad number of elements' or 'Unrecognized expression'.
 */
export const cronExpressionSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const parsed = parseCron(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message satisfies CronSyntaxMessage });
  });

/**
 * backupScheduleDefinition of the task form and the task create/update call (002 §3, §5.6): the web
 * form and the server apply this same schema. The value stays as submitted (trimmed); the server
 * stores toFiveFieldCron(value).
 */
export const backupScheduleSchema = z
  .string({ error: SCHEDULE_MESSAGES.selectSchedule })
  .trim()
  .superRefine((value, ctx) => {
    const message = backupScheduleError(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
