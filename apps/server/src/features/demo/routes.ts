import { ok, pageOf, pagingQuerySchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import type { MailSink } from '../../mail/sink.js';

/** The demo mail viewer's data: what the local SMTP sink caught (demo mode only). */
export function registerDemoMailRoutes(app: FastifyInstance, sink: MailSink): void {
  app.get('/demo/mails', { config: { access: 'demo' } }, async (request) => {
    const { page, size } = parseWith(pagingQuerySchema, request.query);
    const all = sink.list();
    return ok(pageOf(all.slice(page * size, (page + 1) * size), all.length, size));
  });
}
