/**
 * The agent's own log files (issue #5): every line the agent logs is also appended to `{stateDir}/logs/agent.log`
 * (0600, in a 0700 directory). When the file would grow past its cap it becomes `agent.1.log` (replacing the
 * older one) and a new `agent.log` starts, so the logs take at most twice the cap. The lines are redacted
 * before they get here (the machine credential and the repository password never reach a log).
 *
 * On the portal's `uploadLogFiles` command the files are uploaded one by one over HTTP with the machine
 * credential (`ROUTES.machineCommands.agentLogUpload`), the last LOG_FILES.maxBytes of a larger file only.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isLogFileName, LOG_FILES, ROUTES, withQuery } from '@portal/domain';
import { envelopeErrors } from './link.js';

export const AGENT_LOG_FILE = 'agent.log';
export const ROTATED_LOG_FILE = 'agent.1.log';
/** Default cap of each of the two files. */
export const DEFAULT_LOG_FILE_BYTES = 1024 * 1024;

/** Where the agent keeps its log files. */
export const logDirOf = (stateDir: string) => join(stateDir, 'logs');

/** Appends lines to `agent.log`, rotating it to `agent.1.log` at the cap. Never throws. */
export class LogFile {
  private size: number | null = null;
  private failed = false;
  readonly path: string;

  constructor(
    readonly dir: string,
    private readonly maxBytes = DEFAULT_LOG_FILE_BYTES,
  ) {
    this.path = join(dir, AGENT_LOG_FILE);
  }

  write(line: string): void {
    const text = line.endsWith('\n') ? line : `${line}\n`;
    const bytes = Buffer.byteLength(text);
    try {
      if (this.size === null) {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        this.size = fileSize(this.path);
      }
      if (this.size > 0 && this.size + bytes > this.maxBytes) {
        renameSync(this.path, join(this.dir, ROTATED_LOG_FILE));
        this.size = 0;
      }
      const fd = openSync(this.path, 'a', 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      this.size += bytes;
      this.failed = false;
    } catch (error) {
      // A full disk or a removed directory must not stop the agent; say so once on stderr.
      if (!this.failed) process.stderr.write(`portal-agent: cannot write ${this.path}: ${String(error)}\n`);
      this.failed = true;
      this.size = null;
    }
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * The log files to upload, oldest first: `agent.1.log`, `agent.log`, and with `includeUpdaterLogs` every
 * `updater*.log` of the directory (this agent has no updater of its own; an installer may leave its logs there).
 */
export function logFilesToUpload(dir: string, includeUpdaterLogs: boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const own = [ROTATED_LOG_FILE, AGENT_LOG_FILE].filter((name) => names.includes(name));
  const updater = includeUpdaterLogs
    ? names.filter((name) => /^updater.*\.log$/.test(name) && isLogFileName(name)).sort()
    : [];
  return [...own, ...updater];
}

/**
 * The file's text, at most `maxBytes` of it: the tail of a larger file, starting after its first cut line
 * (so no line, and no UTF-8 character, is cut in half).
 */
export function readTail(path: string, maxBytes: number = LOG_FILES.maxBytes): string {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const start = Math.max(0, size - maxBytes);
    // From one byte before the cut, to see whether the cut falls at the start of a line.
    const from = start === 0 ? 0 : start - 1;
    const buffer = Buffer.alloc(size - from);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    const data = buffer.subarray(0, read);
    if (start === 0) return data.toString('utf8');
    const newline = data.indexOf(0x0a);
    return data.subarray(newline < 0 ? data.length : newline + 1).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export interface LogUploadOptions {
  server: string;
  machineId: number;
  token: string;
  dir: string;
  includeUpdaterLogs: boolean;
  maxBytes?: number;
  fetch?: typeof fetch;
}

/** Uploads the log files; resolves with the names uploaded and one message per file that failed. */
export async function uploadLogFiles(options: LogUploadOptions): Promise<{ uploaded: string[]; failures: string[] }> {
  const uploaded: string[] = [];
  const failures: string[] = [];
  const authorization = `Basic ${Buffer.from(`${options.machineId}:${options.token}`).toString('base64')}`;
  for (const name of logFilesToUpload(options.dir, options.includeUpdaterLogs)) {
    const path = join(options.dir, name);
    try {
      const lastModified = statSync(path).mtime;
      const response = await (options.fetch ?? fetch)(
        `${options.server}${withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: options.machineId }), { fileName: name, lastModified: lastModified.toISOString() })}`,
        {
          method: 'PUT',
          headers: { authorization, 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' },
          body: readTail(path, options.maxBytes),
          signal: AbortSignal.timeout(60_000),
        },
      );
      if (response.ok) {
        uploaded.push(name);
        continue;
      }
      failures.push(`${name}: ${await refusal(response)}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      failures.push(`${name}: ${cause?.code ?? cause?.message ?? String(error)}`);
    }
  }
  return { uploaded, failures };
}

async function refusal(response: Response): Promise<string> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not an envelope
  }
  const lines = envelopeErrors(body);
  return lines.length > 0 ? `HTTP ${response.status}: ${lines.join(' ')}` : `HTTP ${response.status}`;
}
