import { changesState, keyedRoutes } from './api.js';
import { AUDIT_KIND_GROUPS, type AuditKindGroup, auditKindGroup, auditKindName } from './audit-kind-labels.js';
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

/** Who reads a trail: the provider's admins (every tenant), a reseller's super admin, another customer's. */
export type AuditViewer = 'provider' | 'reseller' | 'customer';

/** Audiences whose calls only the provider's admins can make, and those a reseller's staff make too. */
const PROVIDER_AUDIENCES = new Set(['providerAdmin']);
const RESELLER_AUDIENCES = new Set(['resellerAdmin', 'resellerSuperAdmin', 'customerManager']);
/**
 * Path ids whose rows belong to a customer: a call naming one is recorded in that customer's trail (tenants.ts),
 * so its kind can be in a customer's trail even when only the provider or a reseller makes the call.
 */
const CUSTOMER_OWNED_IDS = /:(customerId|userId|packageId|machineId|taskId|storageLocationId|requestId)\b/;

function mayHave(viewer: AuditViewer, access: string, path: string): boolean {
  if (viewer === 'provider') return true;
  if (CUSTOMER_OWNED_IDS.test(path)) return true;
  if (PROVIDER_AUDIENCES.has(access)) return false;
  return viewer === 'reseller' || !RESELLER_AUDIENCES.has(access);
}

export interface AuditKindOption {
  kind: string;
  label: string;
}

/**
 * The kinds a viewer's trail can hold, grouped by area (AUDIT_KIND_GROUPS' order), labels sorted: the provider
 * all; a customer's super admin not the provider's own infrastructure (billing servers, storage accounts, the
 * provider's templates and lists), nor, unless a reseller, the reseller's own calls.
 */
export function auditKindsFor(viewer: AuditViewer): Array<{ group: AuditKindGroup; kinds: AuditKindOption[] }> {
  const access = new Map(keyedRoutes().map(({ key, entry }) => [key, entry] as const));
  const offered = auditKinds().filter((kind) => {
    const entry = access.get(kind);
    return entry === undefined || mayHave(viewer, entry.access, entry.path);
  });
  return AUDIT_KIND_GROUPS.map((group) => ({
    group,
    kinds: offered
      .filter((kind) => auditKindGroup(kind) === group)
      .map((kind) => ({ kind, label: auditKindName(kind) }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en')),
  })).filter((entry) => entry.kinds.length > 0);
}
