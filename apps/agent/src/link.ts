/**
 * `portal-agent link` (DESIGN §6): proves itself with a user's e-mail and password or with a one-time linking
 * code made in the portal, registers this machine at the portal (ROUTES.machineLink.agentLink) and stores the machine
 * credential in the config file (0600). The token is never printed.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type Envelope,
  type MachineLinkRequest,
  type MachineLinkResult,
  machineLinkRequestSchema,
  ROUTES,
} from '@portal/domain';
import {
  type AgentConfig,
  CLIENT_VERSION,
  defaultStateDir,
  deviceFingerprint,
  localTimeZone,
  machineName,
  operatingSystem,
  osFamily,
  writeConfig,
} from './config.js';

export class LinkError extends Error {}

export interface LinkOptions {
  server: string;
  /** Who links the machine: a user's e-mail and password, or a linking code made in the portal. */
  proof: { email: string; password: string } | { linkingCode: string };
  configPath: string;
  backupPackageId?: number | undefined;
  name?: string | undefined;
  /** For tests: the fingerprint source (default /etc/machine-id). */
  machineIdFile?: string;
  fetch?: typeof fetch;
}

/** The portal's base URL without a trailing slash; http(s) only. */
export function normaliseServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new LinkError(`'${server}' is not a URL (expected e.g. https://portal.example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LinkError(`'${server}' must start with http:// or https://.`);
  }
  if (url.username || url.password) throw new LinkError('The server URL must not contain credentials.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The envelope's messages as lines: `field: message` when the message names a field. */
export function envelopeErrors(body: unknown): string[] {
  const messages = (body as Partial<Envelope<unknown>> | null)?.messages;
  if (!Array.isArray(messages)) return [];
  return messages
    .filter((m) => m && typeof m.message === 'string' && m.message !== '')
    .map((m) => (m.fieldName ? `${m.fieldName}: ${m.message}` : m.message));
}

export async function linkMachine(options: LinkOptions): Promise<{ config: AgentConfig; result: MachineLinkResult }> {
  const server = normaliseServer(options.server);
  const configDir = dirname(options.configPath);
  const request: MachineLinkRequest = {
    ...options.proof,
    ...(options.backupPackageId === undefined ? {} : { backupPackageId: options.backupPackageId }),
    name: options.name ?? machineName(),
    osFamily: osFamily(),
    operatingSystem: operatingSystem(),
    clientVersion: CLIENT_VERSION,
    fingerprint: deviceFingerprint(configDir, options.machineIdFile),
    timeZone: localTimeZone(),
  };
  const checked = machineLinkRequestSchema.safeParse(request);
  if (!checked.success) {
    const lines = checked.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`);
    throw new LinkError(`The link request is not valid:\n  ${lines.join('\n  ')}`);
  }

  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(`${server}${ROUTES.machineLink.agentLink.build()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(checked.data),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new LinkError(`Cannot reach ${server}: ${cause?.code ?? cause?.message ?? String(error)}`);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: reported below by status
  }
  const envelope = body as Partial<Envelope<MachineLinkResult>> | null;
  if (!response.ok || envelope?.status !== 'OK') {
    const lines = envelopeErrors(body);
    const detail = lines.length > 0 ? lines.join('\n  ') : `HTTP ${response.status} ${response.statusText}`.trim();
    if (response.status === 404 && lines.length === 0) {
      throw new LinkError(`${server} does not accept agent links (HTTP 404): is this the portal's address?`);
    }
    throw new LinkError(`The portal refused the link:\n  ${detail}`);
  }
  const result = envelope.result;
  if (!result || !Number.isInteger(result.machineId) || typeof result.token !== 'string' || result.token === '') {
    throw new LinkError('The portal answered without a machine credential.');
  }
  const config: AgentConfig = {
    server,
    machineId: result.machineId,
    token: result.token,
    stateDir: defaultStateDir(options.configPath),
    name: checked.data.name,
  };
  writeConfig(options.configPath, config);
  return { config, result };
}

/**
 * `portal-agent unlink`: the portal revokes this machine's credential (its live connection closes and its
 * storage stops trusting it within seconds), then the config file holding it is removed. A credential the
 * portal no longer knows (401: unlinked already, or replaced by a later link) counts as done, so a retry
 * after a lost answer succeeds.
 */
export async function unlinkMachine(
  configPath: string,
  config: AgentConfig,
  fetcher: typeof fetch = fetch,
): Promise<'unlinked' | 'unknown to the portal'> {
  const server = normaliseServer(config.server);
  let response: Response;
  try {
    response = await fetcher(`${server}${ROUTES.machineLink.agentUnlink.build({ machineId: config.machineId })}`, {
      method: 'DELETE',
      headers: {
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${config.machineId}:${config.token}`).toString('base64')}`,
      },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new LinkError(`Cannot reach ${server}: ${cause?.code ?? cause?.message ?? String(error)}`);
  }
  if (response.status !== 200 && response.status !== 401) {
    const lines = envelopeErrors(await response.json().catch(() => null));
    const detail = lines.length > 0 ? lines.join('\n  ') : `HTTP ${response.status} ${response.statusText}`.trim();
    throw new LinkError(`The portal refused the unlink:\n  ${detail}`);
  }
  rmSync(configPath, { force: true });
  return response.status === 200 ? 'unlinked' : 'unknown to the portal';
}
