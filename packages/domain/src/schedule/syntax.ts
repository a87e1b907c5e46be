/**
 * The cron syntax behind every backup schedule (000 §2 and §5 'Schedule picker', 002 §3 and §5.6).
 *
 * A schedule is five fields — minute, hour, day of month, month, day of week — read against the
 * machine's wall clock. The picker's "Unix variant" adds a leading seconds field that is always 0, so
 * six fields are accepted too as long as the seconds field means "second 0" (runs are planned to the
 * minute; a backup started at second 17 instead of second 0 is the same run).
 *
 * Grammar of one field (classic Vixie cron, nothing vendor-specific): a comma-separated list of parts,
 * each part one of `*`, `*\/step`, `value`, `value/step` (value up to the field's end, Vixie style),
 * `from-to` and `from-to/step`. Values are decimal numbers of one or two digits; months also take
 * JAN..DEC and days of week SUN..SAT (any letter case). Day of week is 0..7 where 0 and 7 are both
 * Sunday; an implicit end (`*`, `value/step`) stops at Saturday (6), so `1/2` is Monday, Wednesday,
 * Friday. Not accepted: Quartz extensions (`?`, `L`, `W`, `#`), macros (`@daily`), steps of 0 or larger
 * than the field's largest value, reversed ranges. Anything outside the grammar yields the picker's
 * message 'Unrecognized expression'; a wrong field count yields 'Bad number of elements' (000 §5).
 */

/** Texts of the schedule rules, spelled as the specification writes them (000 §5, 002 §5.6). */
export const SCHEDULE_MESSAGES = {
  /** 000 §5: the expression does not have five fields (six with the Unix variant's seconds). */
  badNumberOfElements: 'Bad number of elements',
  /** 000 §5: a field does not parse (bad characters, out of range, bad step, reversed range...). */
  unrecognizedExpression: 'Unrecognized expression',
  /** 002 §5.6: the task form's schedule is empty or still the picker's untouched default. */
  selectSchedule: 'Please select a schedule for this task.',
  /**
   * Ours (the specification is silent): a schedule whose days never occur, e.g. 30 February. The picker
   * can produce one, and a backup task that never runs must not be saved silently.
   */
  neverRuns: 'This schedule never runs: none of the selected months has the selected days.',
} as const;

/** The two syntax messages of 000 §5. */
export type CronSyntaxMessage =
  | typeof SCHEDULE_MESSAGES.badNumberOfElements
  | typeof SCHEDULE_MESSAGES.unrecognizedExpression;

/** The five fields of a schedule, in cron order. */
export const CRON_FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
export type CronField = (typeof CRON_FIELDS)[number];

/** Where a syntax error was found: one of the five fields, or the Unix variant's seconds field. */
export type CronErrorField = CronField | 'second';

/** Month names, index 0 = January (cron month 1); the picker's month enumeration (001 §3). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Weekday names indexed by cron day-of-week number (0 = Sunday); the weekday enumeration (001 §3). */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** One comma-separated part of a field, as written (names already turned into numbers). */
export type CronFieldPart =
  /** `*` (step 1) or `*\/step`. */
  | { readonly kind: 'any'; readonly step: number }
  /** `value` (step null) or `value/step`, which runs from value to the field's end. */
  | { readonly kind: 'value'; readonly value: number; readonly step: number | null }
  /** `from-to` (step 1) or `from-to/step`; from <= to. */
  | { readonly kind: 'range'; readonly from: number; readonly to: number; readonly step: number };

/**
 * A parsed, valid five-field schedule. The value lists are what the evaluator and the description
 * work from, so two spellings of the same schedule ('MON-FRI' and '1-5') behave and read the same.
 */
export interface CronSchedule {
  /** The five fields as written, separated by single spaces (the Unix variant's seconds dropped). */
  readonly expression: string;
  /** The parts of each field, as written; the picker conversion needs the shape, not only the values. */
  readonly parts: Readonly<Record<CronField, readonly CronFieldPart[]>>;
  /** Sorted, distinct values of each field. Days of week are 0..6 (7 folded into 0, Sunday). */
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  readonly months: readonly number[];
  readonly daysOfWeek: readonly number[];
  /**
   * Whether the day fields leave anything out. Standard cron: when both are restricted a day matches
   * if EITHER matches ('0 0 1 * 1' runs on the 1st and on every Monday); when one is unrestricted only
   * the other counts. "Restricted" is decided on the values, not on a leading '*' as Vixie cron does,
   * so '*\/1', '1-31' and '*' all mean "every day of the month" — the picker's ranges rely on that.
   */
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

export type CronParseResult =
  | { readonly ok: true; readonly schedule: CronSchedule }
  | { readonly ok: false; readonly message: CronSyntaxMessage; readonly field: CronErrorField | null };

/** Thrown by the functions that take an expression string when the string is not a valid schedule. */
export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
  constructor(
    override readonly message: CronSyntaxMessage,
    readonly expression: string,
    readonly field: CronErrorField | null,
  ) {
    super(message);
  }
}

interface FieldSpec {
  readonly min: number;
  readonly max: number;
  /** Largest value an implicit end (`*`, `value/step`) reaches; 6 for day of week, else max. */
  readonly end: number;
  /** Three-letter names; names[i] is value nameBase + i. */
  readonly names: readonly string[];
  readonly nameBase: number;
}

const FIELD_SPECS: Readonly<Record<CronErrorField, FieldSpec>> = {
  second: { min: 0, max: 59, end: 59, names: [], nameBase: 0 },
  minute: { min: 0, max: 59, end: 59, names: [], nameBase: 0 },
  hour: { min: 0, max: 23, end: 23, names: [], nameBase: 0 },
  dayOfMonth: { min: 1, max: 31, end: 31, names: [], nameBase: 1 },
  month: { min: 1, max: 12, end: 12, names: MONTH_NAMES.map((m) => m.slice(0, 3).toUpperCase()), nameBase: 1 },
  dayOfWeek: { min: 0, max: 7, end: 6, names: WEEKDAY_NAMES.map((d) => d.slice(0, 3).toUpperCase()), nameBase: 0 },
};

/** The values each field may take (days of week as 0..6), for the picker and for callers' inputs. */
export const CRON_FIELD_BOUNDS: Readonly<Record<CronField, { readonly min: number; readonly max: number }>> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  dayOfWeek: { min: 0, max: 6 },
};

const NUMBER = /^\d{1,2}$/;

function parseValue(text: string, spec: FieldSpec): number | null {
  let value: number;
  if (NUMBER.test(text)) value = Number(text);
  else {
    const index = spec.names.indexOf(text.toUpperCase());
    if (index < 0) return null;
    value = spec.nameBase + index;
  }
  return value >= spec.min && value <= spec.max ? value : null;
}

function parsePart(text: string, spec: FieldSpec): CronFieldPart | null {
  const slash = text.indexOf('/');
  const base = slash < 0 ? text : text.slice(0, slash);
  let step: number | null = null;
  if (slash >= 0) {
    const stepText = text.slice(slash + 1);
    if (!NUMBER.test(stepText)) return null;
    step = Number(stepText);
    if (step < 1 || step > spec.max) return null;
  }
  if (base === '*') return { kind: 'any', step: step ?? 1 };
  const dash = base.indexOf('-');
  if (dash < 0) {
    const value = parseValue(base, spec);
    // 'value/step' runs to the field's implicit end, so it must not start beyond it ('7/2' on days of week).
    if (value === null || (step !== null && value > spec.end)) return null;
    return { kind: 'value', value, step };
  }
  const from = parseValue(base.slice(0, dash), spec);
  const to = parseValue(base.slice(dash + 1), spec);
  if (from === null || to === null || from > to) return null;
  return { kind: 'range', from, to, step: step ?? 1 };
}

function parseField(text: string, spec: FieldSpec): CronFieldPart[] | null {
  const parts: CronFieldPart[] = [];
  for (const piece of text.split(',')) {
    const part = parsePart(piece, spec);
    if (!part) return null;
    parts.push(part);
  }
  return parts;
}

/** The sorted distinct values a field's parts select (days of week folded to 0..6). */
function expand(parts: readonly CronFieldPart[], spec: FieldSpec, foldSunday: boolean): number[] {
  const chosen = new Set<number>();
  for (const part of parts) {
    const [from, to, step] =
      part.kind === 'any'
        ? [spec.min, spec.end, part.step]
        : part.kind === 'value'
          ? [part.value, part.step === null ? part.value : spec.end, part.step ?? 1]
          : [part.from, part.to, part.step];
    for (let v = from; v <= to; v += step) chosen.add(foldSunday && v === 7 ? 0 : v);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** Splits an expression into its fields (any run of white space separates fields). */
export function cronElements(expression: string): string[] {
  const trimmed = expression.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

const CACHE_LIMIT = 1000;
const parseCache = new Map<string, CronParseResult>();

function failure(message: CronSyntaxMessage, field: CronErrorField | null): CronParseResult {
  return { ok: false, message, field };
}

function parseUncached(expression: string): CronParseResult {
  const elements = cronElements(expression);
  if (elements.length !== 5 && elements.length !== 6) return failure(SCHEDULE_MESSAGES.badNumberOfElements, null);
  if (elements.length === 6) {
    const seconds = parseField(elements[0] ?? '', FIELD_SPECS.second);
    const values = seconds ? expand(seconds, FIELD_SPECS.second, false) : [];
    // The Unix variant's seconds field is 0 (000 §2); anything else is not a schedule we can run.
    if (values.length !== 1 || values[0] !== 0) {
      return failure(SCHEDULE_MESSAGES.unrecognizedExpression, 'second');
    }
    elements.shift();
  }
  const parts: Partial<Record<CronField, CronFieldPart[]>> = {};
  const values: Partial<Record<CronField, number[]>> = {};
  for (const [index, field] of CRON_FIELDS.entries()) {
    const spec = FIELD_SPECS[field];
    const parsed = parseField(elements[index] ?? '', spec);
    if (!parsed) return failure(SCHEDULE_MESSAGES.unrecognizedExpression, field);
    parts[field] = parsed;
    values[field] = expand(parsed, spec, field === 'dayOfWeek');
  }
  const list = (field: CronField) => Object.freeze(values[field] ?? []);
  const schedule: CronSchedule = {
    expression: elements.join(' '),
    parts: {
      minute: parts.minute ?? [],
      hour: parts.hour ?? [],
      dayOfMonth: parts.dayOfMonth ?? [],
      month: parts.month ?? [],
      dayOfWeek: parts.dayOfWeek ?? [],
    },
    minutes: list('minute'),
    hours: list('hour'),
    daysOfMonth: list('dayOfMonth'),
    months: list('month'),
    daysOfWeek: list('dayOfWeek'),
    dayOfMonthRestricted: list('dayOfMonth').length < 31,
    dayOfWeekRestricted: list('dayOfWeek').length < 7,
  };
  // Parsed schedules are memoised and shared: frozen so no caller can change another's.
  for (const field of CRON_FIELDS) Object.freeze(schedule.parts[field]);
  Object.freeze(schedule.parts);
  return { ok: true, schedule: Object.freeze(schedule) };
}

/**
 * Parses a five-field expression, or a six-field one whose leading seconds field is 0 (000 §2).
 * Results are memoised (bounded), since the same few expressions are evaluated over and over.
 */
export function parseCron(expression: string): CronParseResult {
  const cached = parseCache.get(expression);
  if (cached) return cached;
  const result = parseUncached(expression);
  if (parseCache.size >= CACHE_LIMIT) parseCache.clear();
  parseCache.set(expression, result);
  return result;
}

/** The picker's check of 000 §5: null when valid, else 'Bad number of elements' or 'Unrecognized expression'. */
export function validateCron(expression: string): CronSyntaxMessage | null {
  const result = parseCron(expression);
  return result.ok ? null : result.message;
}

/** A parsed schedule, or the CronSyntaxError for an invalid expression. */
export function requireCron(cron: string | CronSchedule): CronSchedule {
  if (typeof cron !== 'string') return cron;
  const result = parseCron(cron);
  if (!result.ok) throw new CronSyntaxError(result.message, cron, result.field);
  return result.schedule;
}

/**
 * The five-field form stored with a task (the database keeps five fields): white space normalised and
 * the Unix variant's zero seconds dropped. Throws CronSyntaxError for an invalid expression.
 */
export function toFiveFieldCron(cron: string): string {
  return requireCron(cron).expression;
}

/** The picker's Unix variant (000 §2): the five fields behind a leading seconds field of 0. */
export function toUnixCron(cron: string): string {
  return `0 ${toFiveFieldCron(cron)}`;
}

/** Whether the expression is the six-field Unix variant (a leading seconds field). */
export function isUnixCron(expression: string): boolean {
  return cronElements(expression).length === 6;
}

/**
 * Whether two expressions describe the same schedule (same values in every field), so a form can tell
 * a real change from a respelling (002 §4.3 backupScheduleDefinitionChanged). Invalid expressions are
 * compared as trimmed text.
 */
export function sameSchedule(a: string, b: string): boolean {
  const left = parseCron(a);
  const right = parseCron(b);
  if (!left.ok || !right.ok) return a.trim() === b.trim();
  const x = left.schedule;
  const y = right.schedule;
  const same = (p: readonly number[], q: readonly number[]) => p.length === q.length && p.every((v, i) => v === q[i]);
  return (
    same(x.minutes, y.minutes) &&
    same(x.hours, y.hours) &&
    same(x.daysOfMonth, y.daysOfMonth) &&
    same(x.months, y.months) &&
    same(x.daysOfWeek, y.daysOfWeek)
  );
}

/** Longest each month can be (February 29 in leap years), index 0 = January. */
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * Whether the schedule can never run: only when the day of week is unrestricted and none of the chosen
 * months ever has one of the chosen days (30 February, 31 April). 29 February runs in leap years.
 */
export function neverRuns(cron: string | CronSchedule): boolean {
  const schedule = requireCron(cron);
  if (schedule.dayOfWeekRestricted || !schedule.dayOfMonthRestricted) return false;
  const firstDay = schedule.daysOfMonth[0] ?? 1;
  return schedule.months.every((month) => firstDay > (LONGEST_MONTH[month - 1] ?? 31));
}
