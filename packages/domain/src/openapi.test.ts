import { describe, expect, it } from 'vitest';
import { answersEnvelope, type HttpMethod, keyedRoutes } from './api.js';
import { ACCESS_LEVEL_TEXTS, buildOpenApiDocument, nonJsonReason, OPENAPI_VERSION, operationsOf } from './openapi.js';
import { RUN_STALL_DEFAULT_MINUTES, stallCutoff } from './runs.js';

const document = buildOpenApiDocument() as {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { security: Record<string, string[]>[]; requestBody?: unknown }>>;
  'x-not-json': { method: HttpMethod; path: string; reason: string }[];
};
const operations = operationsOf(document);
const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

describe('the OpenAPI document of the route table', () => {
  it('is OpenAPI 3.1 with one operation per JSON route, and names every other route with why it is not one', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(OPENAPI_VERSION);
    const routes = keyedRoutes();
    const json = routes.filter(({ entry }) => answersEnvelope(entry));
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(json.map(({ key }) => key).sort());
    expect(document['x-not-json']).toHaveLength(routes.length - json.length);
    for (const other of document['x-not-json']) expect(other.reason).toBe(nonJsonReason(other));
  });

  it('writes path parameters in braces, all required, and says who may call in words', () => {
    for (const operation of operations) {
      expect(operation.path).not.toContain(':');
      for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
        expect(operation.path).toContain(`{${parameter.name}}`);
        expect(parameter.required).toBe(true);
      }
      expect(operation.description).toContain(ACCESS_LEVEL_TEXTS[operation.access as keyof typeof ACCESS_LEVEL_TEXTS]);
    }
  });

  it('asks the CSRF header of a session only on a change, lets no token manage tokens, and a machine use its own credential', () => {
    const securityOf = (key: string) => {
      const operation = byId.get(key);
      if (!operation) throw new Error(`no operation ${key}`);
      return document.paths[operation.path]?.[operation.method.toLowerCase()]?.security;
    };
    const machine = keyedRoutes().find(({ entry }) => entry.machineAuth === 'credential' && answersEnvelope(entry));
    expect(machine && securityOf(machine.key)).toEqual([{ machineCredential: [] }]);
    expect(machine && byId.get(machine.key)?.machineAuth).toBe(true);
    const tokenRoute = keyedRoutes().find(({ key, entry }) => key.startsWith('apiTokens.') && entry.method === 'POST');
    expect(tokenRoute && securityOf(tokenRoute.key)).toEqual([{ sessionCookie: [], csrfHeader: [] }]);
    const read = keyedRoutes().find(
      ({ key, entry }) => key.startsWith('users.') && entry.method === 'GET' && answersEnvelope(entry),
    );
    expect(read && securityOf(read.key)).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
  });

  it('describes a body where a route takes one', () => {
    const withBody = operations.filter((operation) => operation.hasBody);
    expect(withBody.length).toBeGreaterThan(0);
    expect(withBody.every((operation) => operation.method !== 'GET')).toBe(true);
  });

  it('gives each kind of route that answers no envelope its reason', () => {
    expect(nonJsonReason({ method: 'GET', path: '/restic/:machineId/config' })).toContain('restic');
    expect(nonJsonReason({ method: 'GET', path: '/ws/browser' })).toContain('WebSocket');
    expect(nonJsonReason({ method: 'POST', path: '/login' })).toContain('sign-in form');
    expect(nonJsonReason({ method: 'GET', path: '/api/openapi.json' })).toBe('this document');
    expect(nonJsonReason({ method: 'GET', path: '/metrics' })).toContain('METRICS_TOKEN');
    expect(nonJsonReason({ method: 'GET', path: '/assets/:file' })).toContain('built files');
    expect(nonJsonReason({ method: 'POST', path: '/x/download' })).toBe('a file download of a form post');
    expect(nonJsonReason({ method: 'GET', path: '/x/download' })).toBe('a file download');
  });

  it('reads no operations from something that is not a document', () => {
    expect(operationsOf(null)).toEqual([]);
    expect(operationsOf({ paths: {} })).toEqual([]);
  });
});

describe('stalled runs', () => {
  it('are those whose last progress is before the stall limit', () => {
    const now = new Date('2026-12-06T12:00:00Z');
    expect(stallCutoff(now, RUN_STALL_DEFAULT_MINUTES).toISOString()).toBe('2026-12-06T11:30:00.000Z');
  });
});
