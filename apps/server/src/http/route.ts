import { type Envelope, type ResponseOf, type RouteEntry, sessionOnlyEntry } from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';

/** A handler answers the entry's envelope, or sends something else itself (a redirect, a file, restic's REST). */
export type RouteHandler<R extends RouteEntry> = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Envelope<ResponseOf<R>> | FastifyReply>;

export interface RouteOptions extends RouteShorthandOptions {
  /** Also answer HEAD with the same handler (restic's REST backend). */
  head?: boolean;
}

/**
 * Registers an entry of the domain's route table: the method, the path, the access level, whether the caller
 * proves itself (machineAuth) and whether only a session may call it (sessionOnly) come from the entry, so none
 * is written in a feature's routes, and the handler must answer the entry's type.
 */
export function route<R extends RouteEntry>(
  app: FastifyInstance,
  entry: R,
  handler: RouteHandler<R>,
  options: RouteOptions = {},
): void {
  const { head, config, ...rest } = options;
  app.route({
    ...rest,
    method: head ? [entry.method, 'HEAD'] : entry.method,
    url: entry.path,
    config: {
      ...config,
      access: entry.access,
      ...(entry.machineAuth ? { machineAuth: true } : {}),
      ...(entry.operatorToken ? { operatorToken: entry.operatorToken } : {}),
      ...(sessionOnlyEntry(entry) ? { sessionOnly: true } : {}),
    },
    handler,
  });
}

/** The route options of an entry registered by another plugin's shorthand (the live channel's WebSockets). */
export const accessOf = (entry: RouteEntry) => ({ config: { access: entry.access } });
