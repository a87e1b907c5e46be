import {
  type AccessLevel,
  CSRF_FIELD_NAME,
  CSRF_HEADER_NAME,
  changesState,
  errorMessage,
  MESSAGES,
  mayAccess,
  type OperatorToken,
} from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenService } from '../features/api-tokens/service.js';
import type { AuthService, MfaPending, SignedIn } from '../features/auth/service.js';
import { newToken, sameToken } from '../features/auth/tokens.js';
import { authenticateBearer, refuseApiToken, refuseReadOnlyWrite } from './bearer.js';
import { AppError, forbidden, unauthenticated } from './errors.js';
import { mfaGate } from './mfa-gate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route without one is refused (fail closed). */
    access?: AccessLevel;
    /**
     * The route authenticates its caller itself, never by cookie (a machine credential in the
     * Authorization header, or the user's e-mail and password of `agent link`): no session is looked
     * up, and the CSRF check does not apply, since a browser's cookies give such a request nothing.
     */
    machineAuth?: boolean;
    /** The route checks a token of the operator's own (METRICS_TOKEN): neither a session nor an API token. */
    operatorToken?: OperatorToken;
    /** Only a person at a session calls the route (tokens, two-factor sign-in): an API token is refused. */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    signedIn: SignedIn | null;
    /** A half-signed-in session (issue 18): to everything but the second step of sign-in, signed out. */
    mfaPending: MfaPending | null;
    /** The token a form or call from this visitor must carry. */
    csrfToken: string;
  }
}

export const SESSION_COOKIE = 'portal_session';
/** Visitors who are not signed in get their token in this cookie (double submit) for /login and resets. */
export const ANONYMOUS_CSRF_COOKIE = 'portal_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Built assets and public downloads (the bulk import example file): no session, and never the web app's page. */
export const isStaticAsset = (url: string) =>
  url.startsWith('/assets/') || url.startsWith('/img/') || url.startsWith('/public/');

export interface CookieOptions {
  secure: boolean;
}

export function setSessionCookie(reply: FastifyReply, token: string, options: CookieOptions): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure });
}

export function clearSessionCookie(reply: FastifyReply, options: CookieOptions): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure });
}

function submittedCsrf(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER_NAME.toLowerCase()];
  if (typeof header === 'string') return header;
  const body = request.body;
  if (body && typeof body === 'object' && CSRF_FIELD_NAME in body) {
    const value = (body as Record<string, unknown>)[CSRF_FIELD_NAME];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/**
 * Resolves the session on every request, then, before each handler, enforces the route's access
 * level and the CSRF token of every state-changing request.
 */
export function registerRequestContext(
  app: FastifyInstance,
  deps: { auth: AuthService; apiTokens: Pick<ApiTokenService, 'resolve'>; cookies: CookieOptions },
): void {
  app.decorateRequest('signedIn', null);
  app.decorateRequest('mfaPending', null);
  app.decorateRequest('csrfToken', '');
  app.decorateRequest('apiToken', null);

  app.addHook('onRequest', async (request, reply) => {
    // Built assets are public and cached; looking up the session for each would cost a query apiece.
    if (isStaticAsset(request.url)) return;
    // Machine-authenticated routes (the restic REST backend) neither use nor hand out cookies.
    if (request.routeOptions.config.machineAuth) return;
    // The scraper's bearer token is METRICS_TOKEN, not an API token: its route checks it.
    if (request.routeOptions.config.operatorToken) return;
    if (await authenticateBearer(request, deps.apiTokens)) return;
    const found = await deps.auth.resolveAny(request.cookies[SESSION_COOKIE]);
    request.signedIn = found?.kind === 'signedIn' ? found.session : null;
    request.mfaPending = found?.kind === 'mfaPending' ? found.pending : null;
    if (found) {
      request.csrfToken = found.kind === 'signedIn' ? found.session.csrfToken : found.pending.csrfToken;
      return;
    }
    if (request.cookies[SESSION_COOKIE]) clearSessionCookie(reply, deps.cookies);
    let anonymous = request.cookies[ANONYMOUS_CSRF_COOKIE];
    if (!anonymous || anonymous.length > 100) {
      anonymous = newToken();
      reply.setCookie(ANONYMOUS_CSRF_COOKIE, anonymous, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.cookies.secure,
      });
    }
    request.csrfToken = anonymous;
  });

  app.addHook('preHandler', async (request) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (!access) throw new AppError(500, 'ROUTE_WITHOUT_ACCESS', [errorMessage(MESSAGES.internalError)]);
    // No session and no token on a route that needs one: the caller is told to sign in (401), not that a form
    // expired (the CSRF check protects a session's cookies, and there is none). Public routes keep the check.
    const nobody = !request.signedIn && !request.mfaPending && !request.apiToken;
    if (nobody && !request.routeOptions.config.machineAuth && !mayAccess(null, access)) throw unauthenticated();
    // A bearer token is not sent by a browser on its own, so a forged cross-site request cannot carry one.
    // Every unsafe method, and a GET that changes state (the specification's set-default link).
    const unsafe = !SAFE_METHODS.has(request.method) || changesState(request.method, request.routeOptions.url ?? '');
    const csrfApplies = unsafe && !request.routeOptions.config.machineAuth && !request.apiToken;
    if (csrfApplies && !sameToken(submittedCsrf(request), request.csrfToken)) {
      throw new AppError(403, 'CSRF_REJECTED', [errorMessage(MESSAGES.csrfRejected, '', 'CSRF_REJECTED')]);
    }
    refuseReadOnlyWrite(request);
    // Before the handler and any other look at the body: a token is refused here whatever it sent.
    if (request.routeOptions.config.sessionOnly) refuseApiToken(request);
    if (mfaGate(request, access) === 'allowed') return;
    const actor = request.signedIn?.actor ?? null;
    if (!mayAccess(actor, access)) throw actor ? forbidden() : unauthenticated();
  });
}

/** The caller's session; only for routes whose access level guarantees one. */
export function requireSignedIn(request: FastifyRequest): SignedIn {
  if (!request.signedIn) throw unauthenticated();
  return request.signedIn;
}

/**
 * What only a person at a session may do: manage tokens (a leaked token cannot give itself successors or hide by
 * revoking its siblings) and two-factor sign-in (a leaked token cannot enrol its holder's authenticator, lock the
 * owner out with the recovery codes, or satisfy a required enrolment on the owner's behalf).
 */
export function requireSession(request: FastifyRequest): SignedIn {
  refuseApiToken(request);
  return requireSignedIn(request);
}

/** The half-signed-in session; only for routes of the 'mfaPending' audience. */
export function requireMfaPending(request: FastifyRequest): MfaPending {
  if (!request.mfaPending) throw unauthenticated();
  return request.mfaPending;
}

export function clientInfo(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
