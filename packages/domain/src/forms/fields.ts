import { z } from 'zod';
import {
  fieldAtLeast,
  fieldAtMost,
  fieldInvisibleCharacters,
  fieldMustBeEmail,
  fieldNotValid,
  fieldRequired,
  fieldTooLong,
  fieldTooShort,
  fieldWholeNumber,
} from '../messages.js';
import { ID_MAX } from '../paths.js';
import { hasControlCharacter, hasFormatCharacter } from '../text.js';

/**
 * Field builders shared by the form schemas. Every form schema is used twice: by the web app
 * (react-hook-form + zodResolver, where inputs give strings) and by the server (JSON bodies, or
 * multipart bodies where every field is a string). Numbers therefore accept numeric strings and
 * booleans accept 'true' / 'false'; the output is always the typed payload.
 */

const trimmedText = (label: string, max: number, min = 1) => {
  const text = z
    .string({ error: fieldRequired(label) })
    .trim()
    .min(1, fieldRequired(label))
    .max(max, fieldTooLong(label, max));
  return min > 1 ? text.min(min, fieldTooShort(label, min)) : text;
};

/** A one-line text holds no control character: '{label} is not valid', like any other character it refuses. */
const withoutControlCharacters = (label: string) =>
  z.string().refine((v) => !hasControlCharacter(v), fieldNotValid(label));

/** A required text, trimmed, with '{label} is required', the maximum length and no control character. */
export const requiredText = (label: string, max: number, min = 1) =>
  trimmedText(label, max, min).pipe(withoutControlCharacters(label));

/** Trimmed, at most `max`, without control characters; a value of another type is '{label} is not valid'. */
const plainText = (label: string, max: number) =>
  z
    .string({ error: fieldNotValid(label) })
    .trim()
    .max(max, fieldTooLong(label, max))
    .pipe(withoutControlCharacters(label));

/** An optional text, trimmed, without control characters; absent or null becomes ''. */
export const optionalText = (label: string, max: number) =>
  plainText(label, max)
    .nullish()
    .transform((v) => v ?? '');

/**
 * What people read as a name or label (a person's names, company, package, template, machine, task, account and
 * brand names, descriptions shown in lists): no invisible or direction-changing character (Unicode Cf), so one
 * name cannot pass for another in lists, mails and the audit trail. Refused, not stripped: the user sees what
 * was wrong. Only whitespace is trimmed, so a value of nothing but such characters is refused too.
 */
const withoutFormatCharacters = (label: string) =>
  z.string().refine((v) => !hasFormatCharacter(v), fieldInvisibleCharacters(label));

/** A required display text: requiredText's rules, and no invisible or direction-changing character. */
export const displayText = (label: string, max: number, min = 1) =>
  requiredText(label, max, min).pipe(withoutFormatCharacters(label));

/** An optional display text: optionalText's rules, and no invisible or direction-changing character. */
export const optionalDisplayText = (label: string, max: number) =>
  optionalText(label, max).pipe(withoutFormatCharacters(label));

/**
 * A search's or a filter's text in a query: optional, trimmed, at most `max`, without control characters (a NUL
 * cannot even reach a PostgreSQL query); blank is no filter (undefined).
 */
export const filterText = (label: string, max: number) =>
  plainText(label, max)
    .optional()
    .transform((v) => (v === '' ? undefined : v));

/** A required e-mail address with '{label} must be a valid email' (which refuses control characters too). */
export const requiredEmail = (label: string, max: number) =>
  trimmedText(label, max).pipe(z.email(fieldMustBeEmail(label)));

/** What a number input may hold: a number, a numeric string (forms, multipart) or nothing. */
export const numberInput = z.union([z.number(), z.string()]).nullish();
export type NumberInput = z.input<typeof numberInput>;

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A number input as a number; NaN when blank or not a number (so range checks fail). */
export function toNumber(value: NumberInput): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim();
  return NUMERIC.test(text) ? Number(text) : Number.NaN;
}

/** Whether a number input is blank: nothing, blank text, or NaN (react-hook-form's valueAsNumber of an empty input). */
export const isBlankNumber = (value: NumberInput) =>
  value === null ||
  value === undefined ||
  (typeof value === 'number' && Number.isNaN(value)) ||
  (typeof value === 'string' && value.trim() === '');

/** A whole number in [min, max]; when `messages.range` is given it replaces every range message. */
export function integerField(
  label: string,
  bounds: { min?: number; max?: number; unit?: string },
  messages: { required?: string; range?: string } = {},
) {
  const required = messages.required ?? fieldRequired(label);
  return numberInput.transform((value, ctx) => {
    const n = toNumber(value);
    const fail = (message: string) => {
      ctx.issues.push({ code: 'custom', message, input: value });
      return z.NEVER;
    };
    if (isBlankNumber(value)) return fail(required);
    if (Number.isNaN(n)) return fail(messages.range ?? fieldNotValid(label));
    if (!Number.isInteger(n)) return fail(messages.range ?? fieldWholeNumber(label));
    if (bounds.min !== undefined && n < bounds.min)
      return fail(messages.range ?? fieldAtLeast(label, bounds.min, bounds.unit));
    if (bounds.max !== undefined && n > bounds.max)
      return fail(messages.range ?? fieldAtMost(label, bounds.max, bounds.unit));
    return n;
  });
}

/** An optional whole number in [min, max]: absent, null or blank is null; otherwise integerField's rules. */
export function optionalIntegerField(label: string, bounds: { min?: number; max?: number; unit?: string }) {
  const number = integerField(label, bounds);
  return numberInput.transform((value, ctx) => {
    if (isBlankNumber(value)) return null;
    const parsed = number.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, input: value });
    return z.NEVER;
  });
}

/** A positive whole number a database id column can hold (a larger one would make the query fail, not miss). */
const isStoredId = (n: number) => Number.isSafeInteger(n) && n > 0 && n <= ID_MAX;

/**
 * A chosen id: a positive whole number. The forms use -1 or 0 for "nothing chosen" (001 §9), so any
 * value that is not a positive whole number gets `message` (e.g. 'Must choose a storage account').
 */
export const chosenId = (message: string) =>
  numberInput.transform((value, ctx) => {
    const n = toNumber(value);
    if (isStoredId(n)) return n;
    ctx.issues.push({ code: 'custom', message, input: value });
    return z.NEVER;
  });

/** An optional id: absent, null or blank is null; otherwise a positive whole number. */
export const optionalId = (label: string) =>
  numberInput.transform((value, ctx) => {
    if (isBlankNumber(value)) return null;
    const n = toNumber(value);
    if (isStoredId(n)) return n;
    ctx.issues.push({ code: 'custom', message: fieldNotValid(label), input: value });
    return z.NEVER;
  });

/** A checkbox: a boolean, or 'true' / 'false' from a multipart body. */
export const checkbox = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

/** A choice among fixed values, with '{label} is required' when blank and '{label} is not valid' otherwise. */
export const choice = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z
    .string({ error: fieldRequired(label) })
    .min(1, fieldRequired(label))
    .pipe(z.enum(values, { error: fieldNotValid(label) }));

/** A web link: an absolute http or https URL (so no javascript: link can reach an href). */
export function isWebUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** A host name such as backup.example.com. */
export const isHostname = (value: string) => HOSTNAME.test(value);

/**
 * A file chosen in a form or received in a multipart body. A browser File has these properties;
 * the server passes { name: filename, type: mimetype }.
 */
export interface UploadedFile {
  name: string;
  type: string;
  size?: number;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const { name, type } = value as { name?: unknown; type?: unknown };
  return typeof name === 'string' && typeof type === 'string';
}

/** The lower-case extension of a file name, with its dot ('' when none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** A file kind accepted by an upload field: both its MIME type and its extension must be listed. */
export interface FileKind {
  mimeTypes: readonly string[];
  extensions: readonly string[];
}

export const fileIsOfKind = (file: UploadedFile, kind: FileKind) =>
  kind.mimeTypes.includes(file.type.toLowerCase()) && kind.extensions.includes(fileExtension(file.name));

/** The accept attribute of a file input for a kind. */
export const acceptAttribute = (kind: FileKind) => [...kind.extensions, ...kind.mimeTypes].join(',');

/**
 * A file input's value as one file: a FileList or an array gives its first file (react-hook-form
 * registers a file input as its FileList); absent, empty or blank gives null.
 */
export function singleFile(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return null;
  if (
    !isUploadedFile(value) &&
    typeof value === 'object' &&
    typeof (value as { length?: unknown }).length === 'number'
  ) {
    const list = value as ArrayLike<unknown>;
    return list.length > 0 ? list[0] : null;
  }
  return value;
}

const fileOfKind = (label: string, kind: FileKind, wrongKindMessage: string) =>
  z
    .custom<UploadedFile>((v) => isUploadedFile(v), { error: fieldRequired(label) })
    .refine((file) => fileIsOfKind(file, kind), { error: wrongKindMessage });

/** A required upload of the given kind; the file passes through unchanged (a browser File stays a File). */
export const uploadField = (label: string, kind: FileKind, wrongKindMessage: string) =>
  z
    .unknown()
    .transform(singleFile)
    .pipe(fileOfKind(label, kind, wrongKindMessage));

/** An optional upload of the given kind: no file is null. */
export const optionalUploadField = (label: string, kind: FileKind, wrongKindMessage: string) =>
  z
    .unknown()
    .transform(singleFile)
    .pipe(fileOfKind(label, kind, wrongKindMessage).nullable())
    .optional()
    .transform((file) => file ?? null);

/**
 * Options for an object-level rule (superRefine) that reads only `fields`: it runs when those fields
 * parsed without issues, even if other fields failed, so a form shows all its errors at once; never when the
 * input is not an object at all (an array or a number sent as the body), which the rule could not read.
 */
export const whenFieldsValid = (...fields: string[]) => ({
  when: (payload: { value: unknown; issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> | undefined }> }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !Array.isArray(payload.value) &&
    !payload.issues.some((issue) => fields.includes(String(issue.path?.[0]))),
});

/** What an object-level rule reports its issues to (zod's refinement context). */
export interface IssueSink {
  addIssue: (issue: { code: 'custom'; message: string; path: PropertyKey[] }) => void;
}

/** Re-runs a field schema inside an object-level rule and reports its issues on `path`. */
export function reportOn(
  ctx: IssueSink,
  path: PropertyKey[],
  result: { success: boolean; error?: { issues: ReadonlyArray<{ message: string }> } | undefined },
): boolean {
  for (const issue of result.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message, path });
  return result.success;
}

/** The field name of an issue as the server's envelope writes it: the path joined with dots ('exclusions.2'). */
export const issueFieldName = (path: ReadonlyArray<PropertyKey>) => path.map(String).join('.');

/** The first message per field name of a failed parse, in order (what the server sends, DESIGN §3). */
export function messagesByField(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const name = issueFieldName(issue.path);
    if (!(name in out)) out[name] = issue.message;
  }
  return out;
}
