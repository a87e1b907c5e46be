import { ok, pageOf, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { MailSink } from '../../mail/sink.js';

/**
 * The demo mail viewer's data: what the local SMTP sink caught (demo mode only). Its reset links open any
 * account, so only a signed-in provider admin may read it.
 */
export function registerDemoMailRoutes(app: FastifyInstance, sink: MailSink): void {
  const mails = ROUTES.demo.mails;
  route(app, mails, async (request) => {
    const { page, size } = parseWith(mails.query, request.query);
    const all = sink.list();
    return ok(pageOf(all.slice(page * size, (page + 1) * size), all.length, size));
  });
}
