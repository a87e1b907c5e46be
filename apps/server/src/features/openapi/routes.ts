import { buildOpenApiDocument, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

/** GET /api/openapi.json: the document of the route table, built once (it depends on the code only). */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  const document = JSON.stringify(buildOpenApiDocument());
  route(app, ROUTES.openApi.document, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(document),
  );
}
