import {
  errorMessage,
  fieldNotValid,
  MESSAGES,
  ok,
  ROUTES,
  SIGN_UP_FORM_LABELS,
  type SignUpResult,
  signUpSchema,
  signUpThrottled,
} from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, conflict, parseWith } from '../../http/errors.js';
import { clientInfo } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import { presentSignUpOptions } from './present.js';
import type { SignUpService } from './service.js';

/** Sign-up of a new customer (domain signup.ts): open to visitors, CSRF-checked like every POST. */
export function registerSignUpRoutes(app: FastifyInstance, deps: { signUp: SignUpService }): void {
  const { signUp } = deps;
  const r = ROUTES.signUp;

  route(app, r.options, async () => ok(presentSignUpOptions(await signUp.templatesOnOffer())));

  route(app, r.submit, async (request, reply) => {
    const templates = await signUp.templatesOnOffer();
    const form = parseWith(signUpSchema(templates.map((t) => t.id)), request.body);
    const outcome = await signUp.signUp(form, clientInfo(request));
    switch (outcome.kind) {
      case 'signedUp':
        return ok<SignUpResult>({ message: MESSAGES.signUp.submitted });
      case 'emailTaken':
        throw conflict(MESSAGES.emailTaken, 'email');
      case 'templateGone':
        throw badRequest(fieldNotValid(SIGN_UP_FORM_LABELS.templateId), 'templateId');
      case 'throttled':
        reply.header('Retry-After', String(outcome.waitSeconds));
        throw new AppError(429, 'THROTTLED', [errorMessage(signUpThrottled(outcome.waitSeconds), '', 'THROTTLED')]);
    }
  });
}
