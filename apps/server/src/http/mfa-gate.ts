import {
  type AccessLevel,
  errorMessage,
  MFA_ENROLMENT_REQUIRED_CODE,
  MFA_ENROLMENT_ROUTES,
  MFA_TEXTS,
} from '@portal/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, unauthenticated } from './errors.js';

const ENROLMENT_ROUTES = new Set(MFA_ENROLMENT_ROUTES.map((r) => `${r.method} ${r.path}`));

/**
 * Two-factor sign-in's part of the access check (issue 18), before the route's audience is checked:
 * - the second step ('mfaPending') lets in a half-signed-in session only ('allowed': nothing else applies);
 * - a user who must set up two-factor sign-in reaches the enrolment calls, sign-out and public routes only.
 * A half-signed-in session is otherwise no session at all (request.signedIn is null).
 */
export function mfaGate(request: FastifyRequest, access: AccessLevel): 'allowed' | 'continue' {
  if (access === 'mfaPending') {
    if (!request.mfaPending) throw unauthenticated();
    return 'allowed';
  }
  if (request.signedIn?.mfaEnrolmentRequired && access !== 'public') {
    if (!ENROLMENT_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) {
      throw new AppError(403, 'FORBIDDEN', [
        errorMessage(MFA_TEXTS.enrolmentRequired, '', MFA_ENROLMENT_REQUIRED_CODE),
      ]);
    }
  }
  return 'continue';
}
