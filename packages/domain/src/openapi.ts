import { z } from 'zod';
import {
  answersEnvelope,
  changesState,
  type HttpMethod,
  isSessionOnlyRoute,
  keyedRoutes,
  type RouteEntry,
} from './api.js';
import { API_TOKEN_LIMITS } from './api-tokens.js';
import { RESPONSE_SUMMARY_CODES, SERVER_MESSAGE_TYPES } from './envelope.js';
import { CSRF_HEADER_NAME } from './initial-data.js';
import type { AccessLevel } from './permissions.js';

/**
 * The OpenAPI 3.1 document of the route table (issue 18), built from the entries' zod schemas with zod's own
 * JSON Schema output. The server serves it, `npm run openapi` writes docs/openapi.json, and a test fails when
 * the committed file and this function disagree.
 */

/** The document's own version: raised when the contract changes in a way callers must notice. */
export const OPENAPI_VERSION = '1.0.0';
export const OPENAPI_TITLE = 'Cloud Backup Portal API';

/** Who each access level lets in, as the document describes an operation's audience. */
export const ACCESS_LEVEL_TEXTS: Record<AccessLevel, string> = {
  public: 'Anyone, signed in or not.',
  signedIn: 'Any signed-in user.',
  customerMember: 'Users of a customer account (not provider admins).',
  customerAdmin: 'Customer super admins and admins.',
  customerSuperAdmin: 'Customer super admins.',
  resellerAdmin: 'Admins of a reseller (a customer whose reseller settings are enabled).',
  resellerSuperAdmin: 'The super admin of a reseller.',
  customerManager: 'Provider admins and reseller admins.',
  anyAdmin: 'Provider admins and customer (super) admins.',
  providerAdmin: 'Provider admins.',
  mfaPending: 'A sign-in waiting for its two-factor code (the second step only).',
};

/** Why a route of the table is not an operation of the document: it answers no JSON envelope. */
export function nonJsonReason(entry: Pick<RouteEntry, 'method' | 'path'>): string {
  const { method, path } = entry;
  if (path === '/metrics') {
    return "Prometheus' text exposition format, for the server's METRICS_TOKEN as a bearer token (absent: 404)";
  }
  if (path.startsWith('/restic/')) return "restic's REST backend, authenticated with the machine's own credential";
  if (path.startsWith('/ws/')) return 'a WebSocket (the live channel); signed-in sessions only';
  if (path === '/login') return 'the browser sign-in form, answered with redirects';
  if (path === '/api/openapi.json') return 'this document';
  if (path.startsWith('/assets/') || path.startsWith('/img/')) return "the web app's built files";
  if (method === 'POST') return 'a file download of a form post';
  return 'a file download';
}

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what a caller sends. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    // Refinements and transforms have no JSON Schema; the document then says only what the input's shape is.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

function parametersOf(entry: RouteEntry): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = jsonSchemaOf(schema);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: property });
    }
  };
  if (entry.path.includes(':')) add(entry.params, 'path');
  add(entry.query, 'query');
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/${name}` });

/**
 * Who may call, by the route's audience and method: a write with a session needs the CSRF header as well; an
 * agent's route its machine credential.
 */
function securityOf(name: string, entry: RouteEntry): Record<string, string[]>[] {
  // A machine's calls take neither a token nor a session: its credential, or (agent link) the proof in the body.
  if (entry.machineAuth === 'credential') return [{ machineCredential: [] }];
  if (entry.machineAuth === 'link') return [{}];
  const write = changesState(entry.method, entry.path);
  const session: Record<string, string[]> = write ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] };
  // Managing tokens and two-factor sign-in needs a session: a token cannot make tokens or enrol an authenticator.
  const schemes = isSessionOnlyRoute(name) ? [session] : [{ bearerToken: [] }, session];
  return entry.access === 'public' ? [{}, ...schemes] : schemes;
}

function operationOf(name: string, entry: RouteEntry): JsonSchema {
  const errors: Record<string, unknown> = {
    '400': ref('responses/BadRequest'),
    '403': ref('responses/Forbidden'),
    '404': ref('responses/NotFound'),
    '409': ref('responses/Conflict'),
    '431': ref('responses/HeadersTooLarge'),
  };
  if (entry.access !== 'public') errors['401'] = ref('responses/Unauthenticated');
  const operation: JsonSchema = {
    operationId: name,
    tags: [name.split('.')[0]],
    summary: `${entry.method} ${entry.path}`,
    // The demo's calls exist only on a portal started in demo mode (DEMO=true); elsewhere they answer 404.
    description: `Who may call: ${ACCESS_LEVEL_TEXTS[entry.access]}${name.startsWith('demo.') ? ' Demo mode only: elsewhere it answers 404.' : ''}`,
    'x-access': entry.access,
    ...(entry.machineAuth ? { 'x-machine-auth': entry.machineAuth } : {}),
    security: securityOf(name, entry),
    parameters: parametersOf(entry),
    responses: { '200': ref('responses/Ok'), ...errors, default: ref('responses/Error') },
  };
  const shapes = entry.body ? [{ schema: entry.body }] : (entry.bodyShapes ?? []);
  const bodies = shapes.map(({ schema, when }) => ({
    ...(when ? { description: when } : {}),
    ...jsonSchemaOf(schema),
  }));
  const [only] = bodies;
  if (only) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: bodies.length === 1 ? only : { anyOf: bodies } } },
    };
  }
  return operation;
}

const envelopeSchema = (result: JsonSchema, status: 'OK' | 'ERROR') => ({
  type: 'object',
  required: ['status', 'messages', 'responseSummaryCode', 'result'],
  properties: {
    status: { const: status },
    messages: { type: 'array', items: { $ref: '#/components/schemas/ServerMessage' } },
    responseSummaryCode: status === 'OK' ? { const: 'OK' } : { $ref: '#/components/schemas/ResponseSummaryCode' },
    result,
  },
});

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

/** The document: every JSON route of the table, and the others named with why they are not operations. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const notJson: { method: HttpMethod; path: string; reason: string }[] = [];
  for (const { key: name, entry } of keyedRoutes()) {
    if (!answersEnvelope(entry)) {
      notJson.push({ method: entry.method, path: entry.path, reason: nonJsonReason(entry) });
      continue;
    }
    const path = openApiPath(entry.path);
    paths[path] = { ...paths[path], [entry.method.toLowerCase()]: operationOf(name, entry) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: OPENAPI_TITLE,
      version: OPENAPI_VERSION,
      description: [
        'Every JSON call of the portal. Each answers the envelope { status, messages, responseSummaryCode, result };',
        'a refusal answers it with status ERROR and messages naming the fields at fault.',
        `Automation authenticates with a personal API token (made in the profile page, ${API_TOKEN_LIMITS.prefix}…)`,
        'as Authorization: Bearer, with exactly its owner\u2019s rights; a read-only token is refused on POST, PUT',
        'and DELETE. A request with a token needs no CSRF header, and a session cookie sent with it is ignored.',
        'The web app itself uses the session cookie, with the CSRF header on every change. A call that needs a',
        'session, sent with no session and no token, is answered 401 before any CSRF check. A request line or headers',
        'too long for the server are answered 431 with the same envelope, and the connection is closed.',
      ].join(' '),
    },
    servers: [{ url: '/' }],
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal API token (${API_TOKEN_LIMITS.prefix}…); read-only tokens only read.`,
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'portal_session', description: 'A signed-in session.' },
        machineCredential: {
          type: 'http',
          scheme: 'basic',
          description:
            "A machine's own credential (its id and the secret issued when it was linked): the agent and restic.",
        },
        csrfHeader: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER_NAME,
          description: "The session's CSRF token (the page's _csrf meta element): every POST, PUT and DELETE.",
        },
      },
      schemas: {
        ResponseSummaryCode: { type: 'string', enum: [...RESPONSE_SUMMARY_CODES] },
        ServerMessage: {
          type: 'object',
          required: ['type', 'fieldName', 'message', 'responseCode'],
          properties: {
            type: { type: 'string', enum: [...SERVER_MESSAGE_TYPES] },
            fieldName: { type: 'string', description: "The input field at fault; '' for the whole request." },
            message: { type: 'string' },
            responseCode: { type: 'string' },
          },
        },
        Envelope: envelopeSchema({ description: "The call's answer." }, 'OK'),
        ErrorEnvelope: envelopeSchema({ type: 'null' }, 'ERROR'),
      },
      responses: {
        Ok: {
          description: 'Done: the envelope with the answer in result.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
        },
        BadRequest: errorResponse('The input is not valid; messages name the fields.'),
        Unauthenticated: errorResponse('Not signed in, or the API token is unknown, expired or revoked.'),
        Forbidden: errorResponse(
          'Not allowed: another audience, a read-only token writing, or a session whose CSRF token is missing.',
        ),
        NotFound: errorResponse('Nothing of that id the caller may see.'),
        Conflict: errorResponse('The change conflicts with what is stored.'),
        HeadersTooLarge: errorResponse('The request line or headers are too long; the connection is closed.'),
        Error: errorResponse('Any other refusal (throttled, a machine offline, ...).'),
      },
    },
    'x-not-json': notJson,
  };
}

/** An operation as the reference page lists it. */
export interface OpenApiOperationSummary {
  operationId: string;
  method: string;
  path: string;
  access: string;
  /** The route's caller is a machine (RouteDefinition.machineAuth): no session, no API token. */
  machineAuth: boolean;
  description: string;
  parameters: { name: string; in: string; required: boolean }[];
  hasBody: boolean;
}

/** The operations of a document, in its order (the reference page and the fuzz test read the document so). */
export function operationsOf(document: unknown): OpenApiOperationSummary[] {
  const paths = ((document as { paths?: unknown })?.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  const out: OpenApiOperationSummary[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      out.push({
        operationId: String(operation.operationId ?? ''),
        method: method.toUpperCase(),
        path,
        access: String(operation['x-access'] ?? ''),
        machineAuth: operation['x-machine-auth'] !== undefined,
        description: String(operation.description ?? ''),
        parameters: ((operation.parameters ?? []) as { name: string; in: string; required?: boolean }[]).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
        })),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return out;
}
