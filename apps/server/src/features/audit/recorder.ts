import {
  type AuditOutcome,
  auditedRouteKinds,
  liveCommandKind,
  type MachineChannelCommand,
  outcomeOfStatus,
  routeKinds,
} from '@portal/domain';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditKind, AuditRepo, SubjectName } from './repo.js';
import { type AuditTenant, ownTenant, type TenantLookup } from './tenants.js';

/** Query parameters a record keeps (the act's options: ?status=, ?delete=true, ?link=true); any `…Id` too. */
const KEPT_QUERY = new Set(['status', 'delete', 'refresh', 'initialize', 'archivedelete', 'type', 'link', 'unlink']);
/** A kept value is a short token: nothing typed freely (a name, a search) reaches the trail. */
const TOKEN = /^[A-Za-z0-9_.-]{1,40}$/;
const PARAM = /:([A-Za-z]+)/g;

const positiveId = (value: unknown): number | null => {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
};

/**
 * What a call names, from its path and query only (never its body): every id parameter, the kept query options
 * and the text path parameters that pick a section; the subject is the route's most specific id
 * (`…/backupmachines/:machineId` → machine 12).
 */
function callFacts(pattern: string, params: unknown, query: unknown) {
  const p = (params ?? {}) as Record<string, unknown>;
  const q = (query ?? {}) as Record<string, unknown>;
  const ids: Record<string, number> = {};
  const detail: Record<string, unknown> = {};
  let subject: { type: string; id: number } | null = null;
  for (const [, name] of pattern.matchAll(PARAM)) {
    if (!name) continue;
    if (name.endsWith('Id')) {
      const id = positiveId(p[name]);
      if (id === null) continue;
      ids[name] = id;
      subject = { type: name.slice(0, -2), id };
    } else if (typeof p[name] === 'string' && TOKEN.test(p[name])) {
      detail[name] = p[name];
    }
  }
  for (const [name, value] of Object.entries(q)) {
    if (typeof value !== 'string') continue;
    if (name.endsWith('Id')) {
      const id = positiveId(value);
      if (id !== null) detail[name] = id;
    } else if (KEPT_QUERY.has(name) && TOKEN.test(value)) {
      detail[name] = value;
    }
  }
  return { ids, subject, detail: { ...ids, ...detail } };
}

interface CallRecord {
  kind: AuditKind;
  request: FastifyRequest;
  pattern: string;
  status: number;
}

/** Whether a caller of this own tenant may act for that one: a provider admin for any, else its own or its customers'. */
const mayActFor = (own: AuditTenant, tenant: AuditTenant) =>
  own.customerId === null || tenant.customerId === own.customerId || tenant.accountCustomerId === own.customerId;

/**
 * The central recorder (issue 18): every call of a state-changing route of ROUTES, named by its key there, once
 * its answer has gone out, so a record never fails an answer (a failed insert is logged, not thrown). Its tenant
 * is read before the handler runs (one small query), while the row the call may remove still exists.
 * Denials (401, 403, 404), and any call on a tenant the caller may not act for, are recorded with the caller's own
 * customer as the tenant: an attempt on another tenant's data is the caller's tenant's business, and the other
 * tenant learns nothing about it. A read refused with 403 to a signed-in caller is recorded too (a permission
 * denial); other reads are not.
 */
export function registerAuditRecorder(
  app: FastifyInstance,
  deps: { audit: Pick<AuditRepo, 'record' | 'subjectName'>; tenants: TenantLookup },
): void {
  const kinds = auditedRouteKinds();
  const reads = routeKinds();

  /** The tenant a call touches, read before its handler runs; a failed lookup leaves it to the record. */
  async function tenantBefore(request: FastifyRequest): Promise<void> {
    const pattern = request.routeOptions.url;
    if (!pattern || !request.signedIn || !kinds.has(`${request.method} ${pattern}`)) return;
    const { ids, subject } = callFacts(pattern, request.params, request.query);
    try {
      const [tenant, subjectName] = await Promise.all([
        deps.tenants.of(ids, ownTenant(request.signedIn.user)),
        subject ? deps.audit.subjectName(subject.type, subject.id) : null,
      ]);
      request.auditTenant = tenant;
      request.auditSubject = subjectName;
    } catch (error) {
      request.log.warn({ err: error, reqId: request.id }, 'audit tenant lookup failed');
    }
  }

  async function recordCall({ kind, request, pattern, status }: CallRecord): Promise<void> {
    const outcome: AuditOutcome = outcomeOfStatus(status);
    const user = request.signedIn?.user ?? null;
    const own = ownTenant(user);
    const { ids, subject, detail } = callFacts(pattern, request.params, request.query);
    const touched: AuditTenant =
      outcome === 'refused' ? own : (request.auditTenant ?? (await deps.tenants.of(ids, own)));
    // A call answered before its handler checked whose the id is (a 400 on the body) may name another tenant's row:
    // only a tenant the caller may act for gets the record, else another tenant's trail could be written into.
    const tenant = user !== null && mayActFor(own, touched) ? touched : own;
    // The subject's name as it was before the call (a delete leaves none to read later), kept only where the
    // subject is the record's tenant's: a call naming another tenant's row must not write its name here.
    const subjectName =
      outcome !== 'refused' && request.auditSubject?.owner === tenant.customerId ? request.auditSubject.name : null;
    await deps.audit.record({
      type: kind,
      userId: user?.id ?? null,
      customerId: tenant.customerId,
      accountCustomerId: tenant.accountCustomerId,
      actorCustomerId: own.customerId,
      email: user?.email ?? null,
      name: user ? `${user.firstName} ${user.surname}` : null,
      ipAddress: request.ip,
      subjectType: subject?.type ?? null,
      subjectId: subject?.id ?? null,
      outcome,
      httpStatus: status,
      // A call made with a personal API token says which: a leaked token's doings are told from its owner's.
      detail: {
        ...detail,
        ...(request.apiToken ? { apiTokenId: request.apiToken.id } : {}),
        ...(subjectName === null ? {} : { subjectName }),
      },
    });
  }

  app.decorateRequest('auditTenant', null);
  app.decorateRequest('auditSubject', null);
  // Registered after the request context: runs only for a call its access check let through.
  app.addHook('preHandler', tenantBefore);
  app.addHook('onResponse', async (request, reply) => {
    const pattern = request.routeOptions.url;
    if (!pattern || request.routeOptions.config.machineAuth) return;
    const key = `${request.method} ${pattern}`;
    const denied = reply.statusCode === 403 && request.signedIn !== null;
    const kind = (kinds.get(key) ?? (denied ? reads.get(key) : undefined)) as AuditKind | undefined;
    if (!kind) return;
    // onResponse runs once the answer is out: the record is written after it, and not awaited by the hook.
    track(recordCall({ kind, request, pattern, status: reply.statusCode }), request, kind);
  });

  const pending = createPending();
  function track(work: Promise<void>, request: FastifyRequest, kind: string): void {
    pending.track(work, (error) =>
      request.log.error({ err: error, reqId: request.id }, `audit record failed: ${kind}`),
    );
  }
  app.decorate('auditSettled', () => pending.settled());
  app.addHook('onClose', async () => pending.settled());
}

/** Records being written after their answers: closing the app (and a test) waits for them. */
function createPending() {
  const running = new Set<Promise<void>>();
  return {
    track(work: Promise<void>, failed: (error: unknown) => void): void {
      const done: Promise<void> = work.catch(failed).finally(() => running.delete(done));
      running.add(done);
    },
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all(running);
    },
  };
}

/**
 * A browser's task command as the live channel reports it, accepted or refused. Declared here, below the channel,
 * so the trail needs nothing of it; the session is the one a request carries.
 */
export interface LiveCommandAudit {
  signedIn: NonNullable<FastifyRequest['signedIn']>;
  machineId: number;
  command: MachineChannelCommand;
  accepted: boolean;
  ipAddress: string | null;
}

/**
 * The live channel's task commands (newtask, starttask, deletetask, ...): recorded as `live.<command>` where the
 * channel accepts or refuses them, with the machine as subject; the tenant is the machine's customer when accepted.
 */
export function createLiveCommandAudit(deps: {
  audit: Pick<AuditRepo, 'record' | 'subjectName'>;
  tenants: TenantLookup;
  log: FastifyBaseLogger;
}) {
  const pending = createPending();
  async function write(event: LiveCommandAudit): Promise<void> {
    const { user } = event.signedIn;
    const own = ownTenant(user);
    const [tenant, machine] = event.accepted
      ? await Promise.all([
          deps.tenants.of({ machineId: event.machineId }, own),
          deps.audit.subjectName('machine', event.machineId),
        ])
      : [own, null];
    const subjectName = machine !== null && machine.owner === tenant.customerId ? machine.name : null;
    await deps.audit.record({
      type: liveCommandKind(event.command) as AuditKind,
      userId: user.id,
      customerId: tenant.customerId,
      accountCustomerId: tenant.accountCustomerId,
      actorCustomerId: own.customerId,
      email: user.email,
      name: `${user.firstName} ${user.surname}`,
      ipAddress: event.ipAddress,
      subjectType: 'machine',
      subjectId: event.machineId,
      outcome: event.accepted ? 'succeeded' : 'refused',
      detail: { machineId: event.machineId, ...(subjectName === null ? {} : { subjectName }) },
    });
  }
  return {
    record(event: LiveCommandAudit): void {
      pending.track(write(event), (error) =>
        deps.log.error({ err: error }, `audit record failed: live.${event.command}`),
      );
    },
    settled: () => pending.settled(),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of an audited call, read before its handler (null: not audited, or the lookup failed). */
    auditTenant: AuditTenant | null;
    /** The subject of an audited call as it was before its handler (null: none, or no name to read). */
    auditSubject: SubjectName | null;
  }
  interface FastifyInstance {
    /** Resolves when every call record under way is written (tests; closing the app waits for them). */
    auditSettled(): Promise<void>;
  }
}
