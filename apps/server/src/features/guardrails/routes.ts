import { GUARDRAIL_TEXTS, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { GuardrailsService } from './service.js';

/** Guard rails (issue 32 items 7, 8): the retention preview, pinning a run's snapshot, acknowledging an unusual run. */
export function registerGuardrailsRoutes(app: FastifyInstance, deps: { guardrails: GuardrailsService }): void {
  const { guardrails } = deps;
  const { retentionPreview, pinSnapshot, acknowledgeChange } = ROUTES.guardrails;

  route(app, retentionPreview, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(retentionPreview.params, request.params);
    const query = parseWith(retentionPreview.query, request.query);
    return ok(await guardrails.preview(actor, path, query.keep));
  });

  route(app, pinSnapshot, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(pinSnapshot.params, request.params);
    const body = parseWith(pinSnapshot.body, request.body);
    await guardrails.pin(actor, path, body.pinned);
    const message = body.pinned ? GUARDRAIL_TEXTS.pinned : GUARDRAIL_TEXTS.unpinned;
    return ok(null, [{ type: 'INFO', fieldName: '', message, responseCode: 'OK' }]);
  });

  route(app, acknowledgeChange, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(acknowledgeChange.params, request.params);
    await guardrails.acknowledge(actor, path);
    return ok(null, [{ type: 'INFO', fieldName: '', message: GUARDRAIL_TEXTS.acknowledged, responseCode: 'OK' }]);
  });
}
