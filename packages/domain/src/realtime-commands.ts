/**
 * The realtime restic commands a provider admin may run on a machine (001 §3, §5, §7; issue 29): one
 * allow-list of sub-commands, and per sub-command the flags it may take, with their values checked. The
 * server applies it before it sends a command and the agent again before it runs one (it never trusts the
 * portal).
 *
 * Flags are read as restic 0.14 reads them (spf13/pflag): `--name`, `--name=value` or `--name value`;
 * `-x`, `-x value`, `-xvalue`, `-x=value`; and a group `-abc` is `-a -b -c` until a letter that takes a value,
 * which takes the rest of the group (or the next part). Every letter of a group is checked, so `-vr` is `-v`
 * and `-r`, refused. Nothing else passes: no flag names a repository, an option (`-o` can set `sftp.command`
 * or `rclone.program`), a password source, a program, key material, TLS files or a cache path. The agent
 * puts `--` before the arguments, and no argument may start with `-`, so no argument is read as a flag.
 */
import { REALTIME_COMMAND_TEXTS, resticCommandNotAllowedText } from './messages.js';

const T = REALTIME_COMMAND_TEXTS;

/**
 * A command as GET .../realtimecommands lists it (001 §3): commandId is the browser's requestId; exitCode is
 * the result name (SUCCESS, SOME_FILES_NOT_ACCESSIBLE, FATAL, ...), null while the command runs.
 */
export interface RealtimeCommandView {
  commandId: string;
  baseCommand: string;
  commandArguments: string[];
  commandFlags: string[];
  commandOutput: string[];
  timeStarted: string;
  timeFinished: string | null;
  exitCode: string | null;
}

/** How a flag's value is checked ('verbosity': a counter's level after `=`); null: the flag is a switch. */
export type RealtimeFlagValue =
  | 'count'
  | 'verbosity'
  | 'text'
  | 'snapshotId'
  | 'groupBy'
  | 'statsMode'
  | 'readDataSubset';

export interface RealtimeFlag {
  /** The long name without dashes, e.g. 'json'. */
  long: string;
  /** The one-letter short form, if restic has one. */
  short?: string;
  value: RealtimeFlagValue | null;
  /** A counter switch (`-v`, `-vv`): it also takes a level after `=` (`--verbose=2`, `-v=2`). */
  counter?: true;
}

/** Longest value of a flag (ours: hosts, paths and tags are far shorter). */
export const REALTIME_FLAG_VALUE_MAX = 255;

/** A value restic reads as text (a host, a path, a tag list, a date): present, not a flag, one line. */
const isText = (v: string) => v.length > 0 && v.length <= REALTIME_FLAG_VALUE_MAX && !v.startsWith('-');

/** What each kind of value accepts (restic 0.14's `restic help <command>`), and how the message names it. */
const VALUE_RULES: Record<RealtimeFlagValue, { valid: (v: string) => boolean; expected: string }> = {
  count: { valid: (v) => /^\d{1,9}$/.test(v), expected: 'a whole number' },
  verbosity: { valid: (v) => /^[0-3]$/.test(v), expected: 'a level from 0 to 3' },
  text: { valid: isText, expected: "text that does not start with '-'" },
  snapshotId: { valid: (v) => /^(latest|[0-9a-f]{1,64})$/.test(v), expected: "a snapshot id or 'latest'" },
  groupBy: {
    valid: (v) => /^(host|paths|tags)(,(host|paths|tags))*$/.test(v),
    expected: 'host, paths and/or tags, separated by commas',
  },
  statsMode: {
    valid: (v) => ['restore-size', 'files-by-contents', 'blobs-per-file', 'raw-data'].includes(v),
    expected: 'restore-size, files-by-contents, blobs-per-file or raw-data',
  },
  readDataSubset: {
    valid: (v) => /^(\d{1,9}\/\d{1,9}|\d{1,3}(\.\d{1,6})?%|\d{1,15}[kKmMgGtT]?)$/.test(v),
    expected: "'n/t', 'x%' or a size such as 500M",
  },
};

/**
 * restic's global flags that are harmless in a diagnosis; every other global flag (repository, options,
 * password sources, key hint, TLS files, cache directory and clean-up, writing options) is refused.
 */
export const REALTIME_GLOBAL_FLAGS: readonly RealtimeFlag[] = [
  { long: 'json', value: null },
  { long: 'quiet', short: 'q', value: null },
  { long: 'verbose', short: 'v', value: null, counter: true },
  { long: 'no-lock', value: null },
  { long: 'no-cache', value: null },
  { long: 'limit-download', value: 'count' },
  { long: 'limit-upload', value: 'count' },
];

const host: RealtimeFlag = { long: 'host', short: 'H', value: 'text' };
const path: RealtimeFlag = { long: 'path', value: 'text' };
const tag: RealtimeFlag = { long: 'tag', value: 'text' };

/** The object types `restic cat` may show: never `key` or `masterkey` (key material), `pack` or `lock`. */
export const REALTIME_CAT_OBJECT_TYPES = ['config', 'snapshot', 'index', 'tree', 'blob'] as const;

/**
 * The sub-commands that read or diagnose (never back up, forget or change keys) and their own flags;
 * `unlock` only removes stale locks (not `--remove-all`), the usual cure for a repository a killed run left
 * locked. The default REALTIME_COMMAND_ALLOW_LIST; a provider may narrow it, never widen it.
 */
export const REALTIME_COMMANDS = {
  snapshots: [
    { long: 'compact', short: 'c', value: null },
    { long: 'group-by', short: 'g', value: 'groupBy' },
    host,
    { long: 'latest', value: 'count' },
    path,
    tag,
  ],
  check: [
    { long: 'read-data', value: null },
    { long: 'read-data-subset', value: 'readDataSubset' },
    { long: 'with-cache', value: null },
  ],
  stats: [host, { long: 'mode', value: 'statsMode' }, path, tag],
  ls: [host, { long: 'long', short: 'l', value: null }, path, { long: 'recursive', value: null }, tag],
  find: [
    { long: 'blob', value: null },
    host,
    { long: 'ignore-case', short: 'i', value: null },
    { long: 'long', short: 'l', value: null },
    { long: 'newest', short: 'N', value: 'text' },
    { long: 'oldest', short: 'O', value: 'text' },
    { long: 'pack', value: null },
    path,
    { long: 'show-pack-id', value: null },
    { long: 'snapshot', short: 's', value: 'snapshotId' },
    tag,
    { long: 'tree', value: null },
  ],
  diff: [{ long: 'metadata', value: null }],
  cat: [],
  list: [],
  unlock: [],
  version: [],
} as const satisfies Record<string, readonly RealtimeFlag[]>;

export type RealtimeCommandName = keyof typeof REALTIME_COMMANDS;

/** The default REALTIME_COMMAND_ALLOW_LIST: every sub-command above. */
export const DEFAULT_REALTIME_ALLOW_LIST = Object.keys(REALTIME_COMMANDS) as RealtimeCommandName[];

export const isRealtimeCommandName = (base: string): base is RealtimeCommandName =>
  Object.hasOwn(REALTIME_COMMANDS, base);

/** The flags a sub-command may take: its own and the harmless global ones. */
export function realtimeFlagsOf(base: RealtimeCommandName): readonly RealtimeFlag[] {
  return [...REALTIME_COMMANDS[base], ...REALTIME_GLOBAL_FLAGS];
}

/** One flag as restic reads it, by its long name, with its value (null for a switch). */
export interface ReadFlag {
  long: string;
  value: string | null;
}

export type RealtimeCommandField = 'baseCommand' | 'commandFlags' | 'commandArguments';
export interface RealtimeCommandRefusal {
  field: RealtimeCommandField;
  message: string;
}

const refuse = (field: RealtimeCommandField, message: string): RealtimeCommandRefusal => ({ field, message });

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether a value is one a flag of this kind accepts. */
export const realtimeFlagValueValid = (kind: RealtimeFlagValue, value: string) => VALUE_RULES[kind].valid(value);

/** A flag's value checked against its kind; null when it passes. */
function valueRefusal(flag: RealtimeFlag, shown: string, value: string): RealtimeCommandRefusal | null {
  if (flag.value === null) return null;
  const rule = VALUE_RULES[flag.value];
  return rule.valid(value) ? null : refuse('commandFlags', T.valueNotValid(shown, value, rule.expected));
}

/**
 * One allowed flag with its value: `inline` is what stood after `=` (or the rest of a short group), `next` the part
 * after it. A switch takes no value, but a counter takes a level inline; a flag with a value takes `next` when
 * nothing stood inline.
 */
function readFlag(
  flag: RealtimeFlag,
  shown: string,
  inline: string | null,
  next: string | undefined,
): { flag: ReadFlag; tookNext: boolean } | RealtimeCommandRefusal {
  if (flag.value === null) {
    if (inline === null) return { flag: { long: flag.long, value: null }, tookNext: false };
    if (!flag.counter) return refuse('commandFlags', T.takesNoValue(shown));
    if (!VALUE_RULES.verbosity.valid(inline)) {
      return refuse('commandFlags', T.valueNotValid(shown, inline, VALUE_RULES.verbosity.expected));
    }
    return { flag: { long: flag.long, value: inline }, tookNext: false };
  }
  const value = inline ?? next;
  if (value === undefined) return refuse('commandFlags', T.needsValue(shown));
  const bad = valueRefusal(flag, shown, value);
  if (bad) return bad;
  return { flag: { long: flag.long, value }, tookNext: inline === null };
}

/**
 * Reads the flags as restic would, keeping only allow-listed flags with valid values: the flags read, or the
 * first reason to refuse them.
 */
export function readRealtimeFlags(
  base: RealtimeCommandName,
  parts: readonly string[],
): { flags: ReadFlag[] } | RealtimeCommandRefusal {
  const allowed = realtimeFlagsOf(base);
  const flags: ReadFlag[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    if (CONTROL.test(part)) return refuse('commandFlags', T.controlCharacter(part));
    if (part === '--') return refuse('commandFlags', T.separatorInFlags);
    if (part.startsWith('--')) {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part.slice(2) : part.slice(2, eq);
      const flag = allowed.find((f) => f.long === name);
      if (!flag) return refuse('commandFlags', T.flagNotAllowed(`--${name}`, base));
      const read = readFlag(flag, `--${name}`, eq === -1 ? null : part.slice(eq + 1), parts[i + 1]);
      if ('message' in read) return read;
      flags.push(read.flag);
      if (read.tookNext) i += 1;
      continue;
    }
    if (!part.startsWith('-') || part === '-') return refuse('commandFlags', T.notAFlag(part));
    // A short flag or a group of them: every letter is a flag of its own until one takes a value.
    const letters = part.slice(1);
    for (let j = 0; j < letters.length; j += 1) {
      const letter = letters[j] as string;
      const flag = allowed.find((f) => f.short === letter);
      if (!flag) return refuse('commandFlags', T.flagNotAllowed(`-${letter}`, base, part));
      const rest = letters.slice(j + 1);
      if (flag.value === null && !rest.startsWith('=')) {
        flags.push({ long: flag.long, value: null });
        continue;
      }
      // The rest of the group is the value (`-Hhost`, `-H=host`, a counter's `-v=2`), else the next part is.
      const inline = rest === '' ? null : rest.startsWith('=') ? rest.slice(1) : rest;
      const read = readFlag(flag, `-${letter}`, inline, parts[i + 1]);
      if ('message' in read) return read;
      flags.push(read.flag);
      if (read.tookNext) i += 1;
      break;
    }
  }
  return { flags };
}

/** The arguments' own rules: none starts with '-' (or is read as a flag), `cat` shows allowed objects only. */
function argumentsRefusal(base: RealtimeCommandName, args: readonly string[]): RealtimeCommandRefusal | null {
  for (const arg of args) {
    if (CONTROL.test(arg)) return refuse('commandArguments', T.controlCharacter(arg));
    if (arg.startsWith('-')) return refuse('commandArguments', T.argumentIsFlag(arg));
  }
  if (base === 'cat') {
    const type = args[0];
    if (!REALTIME_CAT_OBJECT_TYPES.some((t) => t === type)) {
      return refuse('commandArguments', T.catObjectType(type, REALTIME_CAT_OBJECT_TYPES));
    }
  }
  return null;
}

/**
 * Why a realtime command may not run, naming the offending part and the form field it is in; null when it
 * may. `allowList` is the sub-commands allowed here (the server's REALTIME_COMMAND_ALLOW_LIST); only those
 * this module knows are ever allowed.
 */
export function realtimeCommandRefusal(
  command: { baseCommand: string; commandArguments: readonly string[]; commandFlags: readonly string[] },
  allowList: readonly string[] = DEFAULT_REALTIME_ALLOW_LIST,
): RealtimeCommandRefusal | null {
  const base = command.baseCommand;
  const allowed = allowList.filter(isRealtimeCommandName);
  if (!isRealtimeCommandName(base) || !allowed.includes(base)) {
    return refuse('baseCommand', resticCommandNotAllowedText(base, allowed));
  }
  const read = readRealtimeFlags(base, command.commandFlags);
  if ('message' in read) return read;
  return argumentsRefusal(base, command.commandArguments);
}

/** restic's arguments for an allowed command: flags first, then `--`, so no argument is ever read as a flag. */
export function realtimeCommandArgv(command: {
  baseCommand: string;
  commandArguments: readonly string[];
  commandFlags: readonly string[];
}): string[] {
  return [command.baseCommand, ...command.commandFlags, '--', ...command.commandArguments];
}
