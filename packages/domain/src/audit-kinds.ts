import { changesState, keyedRoutes } from './api.js';
import { AUDIT_EVENT_TYPES } from './enums.js';
import { MACHINE_CHANNEL_COMMANDS } from './urls.js';

/**
 * Routes whose calls are not audited by route: the sign-in pages (the auth service records their explicit
 * events, failures included), the agents' machine-authenticated calls (restic's REST backend writes objects by
 * the thousand; linking records LINKING_CODE_USED), the second step of sign-in (its service records the code
 * refused, MFA_CODE_FAILED, or the sign-in it completes); calls that only read are never recorded (changesState).
 */
const NOT_AUDITED_PREFIXES = ['auth.', 'restic.'];
const NOT_AUDITED = new Set([
  'mfa.secondStep',
  'machineLink.agentLink',
  'machineLink.agentUnlink',
  'machineCommands.agentLogUpload',
]);

/**
 * The WebSocket task commands (002 §7.8) are recorded as `live.<command>` when the channel accepts or refuses
 * them; the tree listing only reads and is not.
 */
export const liveCommandKind = (command: string) => `live.${command}`;

let byRoute: ReadonlyMap<string, string> | null = null;
let everyRoute: ReadonlyMap<string, string> | null = null;

/**
 * `METHOD path` of every entry → its key: a read refused to a signed-in caller (403, the access check's or a
 * service's) is a permission denial worth a record too, named like the calls that change things.
 */
export function routeKinds(): ReadonlyMap<string, string> {
  everyRoute ??= new Map(keyedRoutes().map(({ key, entry }) => [`${entry.method} ${entry.path}`, key]));
  return everyRoute;
}

const notAudited = (key: string) => NOT_AUDITED.has(key) || NOT_AUDITED_PREFIXES.some((p) => key.startsWith(p));

/** `METHOD path` of every state-changing, audited entry → its key in ROUTES, walked once. */
export function auditedRouteKinds(): ReadonlyMap<string, string> {
  if (byRoute) return byRoute;
  const found = new Map<string, string>();
  for (const { key, entry } of keyedRoutes()) {
    if (!changesState(entry.method, entry.path) || notAudited(key)) continue;
    found.set(`${entry.method} ${entry.path}`, key);
  }
  byRoute = found;
  return found;
}

/**
 * Every kind a record may have, for the kind filter: the security events, then the route keys, reads included
 * (a read refused with 403 is recorded by its key), and the live commands, sorted.
 */
export function auditKinds(): string[] {
  const live = MACHINE_CHANNEL_COMMANDS.filter((command) => command !== 'localtreeitems').map(liveCommandKind);
  const routes = keyedRoutes()
    .map(({ key }) => key)
    .filter((key) => !notAudited(key));
  return [...AUDIT_EVENT_TYPES, ...[...new Set([...routes, ...live])].sort()];
}
