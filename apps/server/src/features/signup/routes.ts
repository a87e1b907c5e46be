import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_MAIL_KINDS,
  errorMessage,
  fieldNotValid,
  MESSAGES,
  ok,
  ROUTES,
  SIGN_UP_FORM_LABELS,
  type SignUpResult,
  signUpAddressInUseMail,
  signUpSchema,
  signUpThrottled,
} from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { AfterAnswer } from '../../http/after-answer.js';
import { AppError, badRequest, parseWith } from '../../http/errors.js';
import { clientInfo } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MailDelivery } from '../../mail/delivery.js';
import { presentSignUpOptions } from './present.js';
import type { SignUpService } from './service.js';

/** Sign-up of a new customer (domain signup.ts): open to visitors, CSRF-checked like every POST. */
export function registerSignUpRoutes(
  app: FastifyInstance,
  deps: { signUp: SignUpService; mail: Pick<MailDelivery, 'queue'>; afterAnswer: AfterAnswer },
): void {
  const { signUp, mail, afterAnswer } = deps;
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
        // Answered as a sign-up, so only the owner of the address learns that it has an account.
        afterAnswer.run(reply, 'sign-up address-in-use mail', async () => {
          const holder = await signUp.accountHolder(form.email);
          if (!holder) return;
          await mail.queue(
            {
              eventKey: `sign-up-address-in-use:${randomUUID()}`,
              kind: ACCOUNT_MAIL_KINDS.signUpAddressInUse,
              customerId: holder.customerId,
              recipient: holder.email,
            },
            (brand) => signUpAddressInUseMail(brand.name, holder.firstName),
          );
        });
        return ok<SignUpResult>({ message: MESSAGES.signUp.submitted });
      case 'templateGone':
        throw badRequest(fieldNotValid(SIGN_UP_FORM_LABELS.templateId), 'templateId');
      case 'throttled':
        reply.header('Retry-After', String(outcome.waitSeconds));
        throw new AppError(429, 'THROTTLED', [errorMessage(signUpThrottled(outcome.waitSeconds), '', 'THROTTLED')]);
    }
  });
}
