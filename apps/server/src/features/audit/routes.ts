import { Readable } from 'node:stream';
import { AUDIT_TEXTS, type AuditFilter, cursorPageOf, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { keysetPaging } from '../../http/cursor.js';
import { asDownload } from '../../http/download.js';
import { badRequest, forbidden, parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import { csvLine } from './csv.js';
import { AUDIT_CSV_HEADER, auditCsvCells, presentAuditRow } from './present.js';
import { AUDIT_ORDER, type AuditRepo, type AuditScope, auditScopeKey } from './repo.js';

/**
 * The audit pages' calls (issue 18): the provider admins' over every tenant, a customer super admin's over its
 * own account: its tenant, and for a reseller also the customers it manages (what its staff and theirs did
 * there), never its reseller's or a sibling's. Read only: no route changes or deletes a record.
 */
export function registerAuditRoutes(app: FastifyInstance, deps: { audit: AuditRepo }): void {
  const r = ROUTES.audit;

  const ownAccount = (request: Parameters<typeof requireSignedIn>[0]): AuditScope => {
    const { customerId, resellerEnabled } = requireSignedIn(request).user;
    if (customerId === null) throw forbidden();
    // A reseller (as the web app tells one: reseller settings on) sees its account, its customers' records with its
    // own; any other customer its own tenant (repo: matching).
    return resellerEnabled === true ? { accountCustomerId: customerId } : { customerId };
  };

  /** A filter of the account's trail: another tenant is refused where the account has none (a reseller's is its). */
  const accountFilter = <F extends Partial<AuditFilter>>(scope: AuditScope, filter: F): F => {
    if ('customerId' in scope && filter.customerId !== undefined && filter.customerId !== scope.customerId) {
      throw badRequest(AUDIT_TEXTS.tenantFilterRefused, 'customerId');
    }
    return filter;
  };

  function exportCsv(reply: FastifyReply, scope: AuditScope, filter: AuditFilter) {
    const audit = deps.audit;
    async function* lines() {
      yield csvLine(AUDIT_CSV_HEADER);
      for await (const row of audit.all(scope, filter)) yield csvLine(auditCsvCells(presentAuditRow(row)));
    }
    const stamp = new Date().toISOString().slice(0, 10);
    return asDownload(reply, 'text/csv; charset=utf-8', `audit-${stamp}.csv`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(lines()));
  }

  /** A page of a scope's trail; a cursor of another scope's is refused (400 on `cursor`). */
  async function pageOf(scope: AuditScope, query: ReturnType<typeof r.provider.query.parse>) {
    const { page, size, cursor, ...filter } = query;
    const paging = keysetPaging({ page, size, cursor }, 'audit', auditScopeKey(scope), AUDIT_ORDER);
    const { rows, total, nextCursor } = await deps.audit.page(scope, filter, paging);
    return ok(cursorPageOf(rows.map(presentAuditRow), total, size, nextCursor));
  }

  route(app, r.provider, async (request) => pageOf({ all: true }, parseWith(r.provider.query, request.query)));
  route(app, r.providerExport, async (request, reply) =>
    exportCsv(reply, { all: true }, parseWith(r.providerExport.query, request.query)),
  );
  route(app, r.account, async (request) => {
    const scope = ownAccount(request);
    return pageOf(scope, accountFilter(scope, parseWith(r.account.query, request.query)));
  });
  route(app, r.accountExport, async (request, reply) => {
    const scope = ownAccount(request);
    return exportCsv(reply, scope, accountFilter(scope, parseWith(r.accountExport.query, request.query)));
  });
}
