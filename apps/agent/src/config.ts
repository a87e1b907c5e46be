/**
 * The agent's files (DESIGN §6): the config file with the machine credential (0600, in a 0700 directory),
 * the device fingerprint, and the state directory (outbox, last task list, connection state).
 *
 * The token is only ever written to the config file: nothing here prints or logs it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { homedir, hostname, type as osType, version as osVersion, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { type AgentTask, agentTaskSchema, type OsFamily } from '@portal/domain';

/** The agent's version, reported at linking and in `hello`. */
export const CLIENT_VERSION = '0.1.0';

export interface AgentConfig {
  /** The portal's base URL, e.g. `https://portal.example.com`. */
  server: string;
  machineId: number;
  token: string;
  /** Where the outbox, the last task list and the connection state live. */
  stateDir: string;
  /** The machine name given at linking (hello and restic's --host); default the host name. */
  name?: string;
}

function isConfig(value: unknown): value is AgentConfig {
  const c = value as Partial<AgentConfig> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.server === 'string' &&
    /^https?:\/\//i.test(c.server) &&
    Number.isInteger(c.machineId) &&
    (c.machineId as number) > 0 &&
    typeof c.token === 'string' &&
    c.token.length > 0 &&
    typeof c.stateDir === 'string' &&
    c.stateDir.length > 0
  );
}

export class ConfigError extends Error {}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PORTAL_AGENT_CONFIG || join(homedir(), '.config', 'portal-agent', 'config.json');
}

/** The state directory next to the config file (`{config dir}/state`). */
export const defaultStateDir = (configPath: string) => join(dirname(configPath), 'state');

export function readConfig(path: string): AgentConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `This machine is not linked yet (no ${path}): run 'portal-agent link --server URL --email E' first.`
        : `Cannot read ${path}: ${code ?? String(error)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`${path} is not valid JSON; link the machine again.`);
  }
  if (!isConfig(json)) throw new ConfigError(`${path} is incomplete; link the machine again.`);
  const config: AgentConfig = {
    server: json.server,
    machineId: json.machineId,
    token: json.token,
    stateDir: json.stateDir,
  };
  if (typeof json.name === 'string' && json.name.trim() !== '') config.name = json.name.trim().slice(0, 50);
  return config;
}

/** Writes a file only its owner can read (0600), atomically (temp file, fsync, rename); its directory 0700. */
export function writePrivateFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temporary, 0o600); // the umask may have narrowed it further, never widened; be explicit
  renameSync(temporary, path);
}

export function writeConfig(path: string, config: AgentConfig): void {
  writePrivateFile(path, `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * A stable id of this device: `/etc/machine-id` hashed (so the raw id never leaves the machine), else a random
 * id stored next to the config file on first use. PORTAL_AGENT_IGNORE_MACHINE_ID=1 skips the machine id, for
 * several agents on one host (the journeys, containers cloned with the same machine id): each config
 * directory is then a device of its own.
 */
export function deviceFingerprint(configDir: string, machineIdFile = '/etc/machine-id'): string {
  if (process.env.PORTAL_AGENT_IGNORE_MACHINE_ID !== '1') {
    try {
      const id = readFileSync(machineIdFile, 'utf8').trim();
      if (id.length >= 8) return createHash('sha256').update(`portal-agent:${id}`).digest('hex');
    } catch {
      // none on this system
    }
  }
  const file = join(configDir, 'fingerprint');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 8) return stored;
  } catch {
    // first use
  }
  const fresh = randomUUID();
  writePrivateFile(file, `${fresh}\n`);
  return fresh;
}

export function osFamily(p: NodeJS.Platform = platform()): OsFamily {
  if (p === 'win32') return 'WINDOWS';
  if (p === 'darwin') return 'MAC';
  return 'LINUX';
}

/** A readable operating system name: PRETTY_NAME of /etc/os-release on Linux, else os.type/release. */
export function operatingSystem(): string {
  if (platform() === 'linux') {
    try {
      const text = readFileSync('/etc/os-release', 'utf8');
      const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)?.[1];
      if (pretty) return pretty.slice(0, 100);
    } catch {
      // fall through
    }
  }
  const v = platform() === 'win32' ? osVersion() : `${osType()} ${release()}`;
  return v.slice(0, 100);
}

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The machine's name: the host name, trimmed to the portal's 50 characters. */
export function machineName(): string {
  return (hostname().split('.')[0] || hostname() || 'machine').slice(0, 50);
}

// --- State files ---------------------------------------------------------------------------------------

export interface ConnectionState {
  connected: boolean;
  lastConnectedAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
}

const connectionStateFile = (stateDir: string) => join(stateDir, 'connection.json');
const tasksFile = (stateDir: string) => join(stateDir, 'tasks.json');

export function readConnectionState(stateDir: string): ConnectionState | null {
  try {
    return JSON.parse(readFileSync(connectionStateFile(stateDir), 'utf8')) as ConnectionState;
  } catch {
    return null;
  }
}

export function writeConnectionState(stateDir: string, state: ConnectionState): void {
  writePrivateFile(connectionStateFile(stateDir), `${JSON.stringify(state)}\n`);
}

export interface StoredTasks {
  tasks: AgentTask[];
  timeZone: string;
}

/** The last task list the portal sent, so the schedule runs after a restart while the portal is unreachable. */
export function readStoredTasks(stateDir: string): StoredTasks | null {
  try {
    const json = JSON.parse(readFileSync(tasksFile(stateDir), 'utf8')) as { tasks?: unknown; timeZone?: unknown };
    if (!Array.isArray(json.tasks) || typeof json.timeZone !== 'string') return null;
    const tasks: AgentTask[] = [];
    for (const task of json.tasks) {
      const parsed = agentTaskSchema.safeParse(task);
      if (parsed.success) tasks.push(parsed.data);
    }
    return { tasks, timeZone: json.timeZone };
  } catch {
    return null;
  }
}

export function writeStoredTasks(stateDir: string, stored: StoredTasks): void {
  writePrivateFile(tasksFile(stateDir), `${JSON.stringify(stored)}\n`);
}
