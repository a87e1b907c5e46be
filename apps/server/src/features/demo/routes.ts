import { ok, pageOf, pagingQuerySchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import type { MailSink } from '../../mail/sink.js';

/**
 * The demo mail viewer's data: what the local SMTP sink caught (demo mode only). Its reset links open any
 * account, so only a signed-in provider admin may read it.
 */
export function registerDemoMailRoutes(app: FastifyInstance, sink: MailSink): void {
  app.get('/demo/mails', { config: { access: 'providerAdmin' } }, async (request) => {
    const { page, size } = parseWith(pagingQuerySchema, request.query);
    const all = sink.list();
    return ok(pageOf(all.slice(page * size, (page + 1) * size), all.length, size));
  });
}
