import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { asDownload } from '../../http/download.js';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { ReportFile, VerificationReportService } from './service.js';

const send = (reply: FastifyReply, file: ReportFile) =>
  asDownload(reply, file.type, file.fileName).header('Cache-Control', 'no-store').send(file.body);

/** The verification report (issue 32 item 4; ROUTES.verificationReport in the domain). */
export function registerVerificationReportRoutes(
  app: FastifyInstance,
  deps: { verificationReport: VerificationReportService },
): void {
  const { verificationReport: reports } = deps;
  const r = ROUTES.verificationReport;

  route(app, r.ownCsv, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    return send(reply, await reports.ownCsv(actor, parseWith(r.ownCsv.query, request.query)));
  });
  route(app, r.ownPdf, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    return send(reply, await reports.ownPdf(actor, parseWith(r.ownPdf.query, request.query)));
  });
  route(app, r.customerCsv, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    const { customerId } = parseWith(r.customerCsv.params, request.params);
    return send(reply, await reports.customerCsv(actor, customerId, parseWith(r.customerCsv.query, request.query)));
  });
  route(app, r.customerPdf, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    const { customerId } = parseWith(r.customerPdf.params, request.params);
    return send(reply, await reports.customerPdf(actor, customerId, parseWith(r.customerPdf.query, request.query)));
  });
  route(app, r.rollupCsv, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    return send(reply, reports.rollupCsv(actor, parseWith(r.rollupCsv.query, request.query)));
  });
  route(app, r.rollupPdf, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    return send(reply, await reports.rollupPdf(actor, parseWith(r.rollupPdf.query, request.query)));
  });
  route(app, r.settings, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await reports.settings(actor));
  });
  route(app, r.saveSettings, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await reports.saveSettings(actor, parseWith(r.saveSettings.body, request.body)));
  });
}
