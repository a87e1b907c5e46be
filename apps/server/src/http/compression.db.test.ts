import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Envelope, ROUTES } from '@portal/domain';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signedInAs } from '../testing/envelope.js';
import { createTenants } from '../testing/fixtures.js';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.js';

let t: TestApp;
let provider: Awaited<ReturnType<typeof signedInAs>>;

beforeAll(async () => {
  t = await createTestApp();
  const tenants = await createTenants(t.database.db);
  // Each sign-in is an audit record: a page of them makes an envelope of a few kilobytes.
  for (let i = 0; i < 8; i++) provider = await signedInAs(t.app, tenants.providerAdmin.email);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, acceptEncoding?: string) =>
  provider.request({
    method: 'GET',
    url,
    headers: { accept: 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });

const decoded = (response: LightMyRequestResponse): Buffer => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload);
  if (encoding === 'gzip') return gunzipSync(response.rawPayload);
  return response.rawPayload;
};

describe('compressing answers by Accept-Encoding (issue 29)', () => {
  const auditPage = `${ROUTES.audit.provider.path}?page=0&size=50`;

  it('compresses an envelope above the threshold, brotli first, and it decompresses to the same envelope', async () => {
    const plain = await get(auditPage);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const envelope = plain.json() as Envelope<unknown>;
    expect(envelope.status).toBe('OK');

    for (const [acceptEncoding, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
    ] as const) {
      const response = await get(auditPage, acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decoded(response).toString('utf8'))).toEqual(envelope);
    }
  });

  it('sends small envelopes and callers that accept no compression the answer as it is', async () => {
    const small = await get(ROUTES.health.check.path, 'gzip, br');
    expect(small.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'OK' });

    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const response = await get(auditPage, acceptEncoding);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect((response.json() as Envelope<unknown>).status).toBe('OK');
    }
  });

  it('streams the CSV export through the compressor: the same records, whole', async () => {
    const exportUrl = ROUTES.audit.providerExport.path;
    const plain = await get(exportUrl);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/csv; charset=utf-8');
    const compressed = await get(exportUrl, 'gzip');
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-disposition']).toMatch(/^attachment; filename="audit-/);
    expect(decoded(compressed).toString('utf8')).toBe(plain.body);
  });
});
