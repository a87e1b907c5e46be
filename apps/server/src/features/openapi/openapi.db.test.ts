import { readFileSync } from 'node:fs';
import { answersEnvelope, buildOpenApiDocument, keyedRoutes, operationsOf, ROUTES } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/suite.js';

const COMMITTED = new URL('../../../../../docs/openapi.json', import.meta.url);

const ctx = useTestApp();

describe('OpenAPI document (issue 18)', () => {
  it('is committed as generated: run `npm run openapi` after changing a route', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('is served publicly at /api/openapi.json, the same document', async () => {
    const response = await ctx.t.app.inject({ method: 'GET', url: ROUTES.openApi.document.build() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('has every JSON route as an operation with its audience, and every other route named with a reason', () => {
    const document = buildOpenApiDocument();
    const operations = operationsOf(document);
    const named = keyedRoutes();
    const json = named.filter(({ entry }) => answersEnvelope(entry));
    expect(operations.map((o) => o.operationId).sort()).toEqual(json.map(({ key }) => key).sort());
    for (const { key: name, entry } of json) {
      const operation = operations.find((o) => o.operationId === name);
      expect(operation, name).toMatchObject({ method: entry.method, access: entry.access });
      // Every {name} of the path is a required path parameter.
      const inPath = [...(operation?.path ?? '').matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]);
      const declared = operation?.parameters.filter((p) => p.in === 'path' && p.required).map((p) => p.name);
      expect(declared?.sort(), name).toEqual(inPath.sort());
      expect(operation?.hasBody, name).toBe(entry.body !== undefined || entry.bodyShapes !== undefined);
    }
    const notJson = (document['x-not-json'] as { method: string; path: string; reason: string }[]).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(notJson.sort()).toEqual(
      named
        .filter(({ entry }) => !answersEnvelope(entry))
        .map(({ entry }) => `${entry.method} ${entry.path}`)
        .sort(),
    );
  });

  it("describes the envelope, the error envelope, both ways a person authenticates and a machine's", () => {
    const document = buildOpenApiDocument() as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'bearerToken',
      'csrfHeader',
      'machineCredential',
      'sessionCookie',
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Envelope', 'ErrorEnvelope', 'ServerMessage']),
    );
    expect(document.paths['/profile']?.put?.security).toEqual([
      { bearerToken: [] },
      { sessionCookie: [], csrfHeader: [] },
    ]);
    // Tokens are managed with a session only.
    expect(document.paths['/profile/apitokens']?.post?.security).toEqual([{ sessionCookie: [], csrfHeader: [] }]);
    // The agent's calls take its machine credential, never a token or a session; `agent link` proves itself in
    // its body.
    expect(document.paths['/agent/machines/{machineId}/logfiles']?.put?.security).toEqual([{ machineCredential: [] }]);
    expect(document.paths['/agent/machines/{machineId}/credential']?.delete?.security).toEqual([
      { machineCredential: [] },
    ]);
    expect(document.paths['/agent/link']?.post?.security).toEqual([{}]);
    // The metrics are Prometheus' text for the scraper's own token: listed beside the document's operations.
    expect((document as unknown as { 'x-not-json': { path: string; reason: string }[] })['x-not-json']).toContainEqual({
      method: 'GET',
      path: '/metrics',
      reason: expect.stringContaining('METRICS_TOKEN'),
    });
  });

  it('describes the bodies the server builds per call, each shape saying which call takes it', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { requestBody?: unknown }>>;
    const bodyOf = (path: string, method: string) =>
      (paths[path]?.[method]?.requestBody as { content: { 'application/json': { schema: Record<string, unknown> } } })
        ?.content['application/json'].schema;
    const fields = (schema: unknown) => Object.keys((schema as { properties: object }).properties).sort();
    expect(fields(bodyOf('/profile', 'put'))).toEqual([
      'contactNumber',
      'currentPassword',
      'email',
      'firstName',
      'surname',
    ]);
    expect(fields(bodyOf('/signup', 'post'))).toContain('templateId');
    const userEdit = bodyOf('/admin/account/users/{userId}', 'put')?.anyOf as Record<string, unknown>[];
    expect(userEdit.map((shape) => shape.description)).toEqual([
      'Without ?link=true: the edit.',
      'With ?link=true: the package to link the user to.',
    ]);
    expect(fields(userEdit[1])).toEqual(['backupPackageId']);
    const packageEdit = bodyOf('/admin/backuppackages/{packageId}', 'put')?.anyOf as Record<string, unknown>[];
    expect(packageEdit.map(fields)).toEqual([
      ['limitBackupSizePerMachine', 'maxBackupSizePerMachine', 'name'],
      ['name'],
    ]);
  });
});
