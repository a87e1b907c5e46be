import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ROUTE_CHUNKS_FILE } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { TestClient } from '../testing/client.js';
import { createTenants, FIXTURE_PASSWORD } from '../testing/fixtures.js';

let t: TestApp;
let dist: string;
/** A built script as the build leaves it: the file, and beside it its .br and .gz (apps/web/vite.config.ts). */
const script = Buffer.from(
  Array.from({ length: 200 }, (_, i) => `export const line${i} = "console.log(${i})";`).join('\n'),
);

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'img'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><title>Cloud Portal</title><script type="module" src="/assets/app.js"></script>${'<link rel="modulepreload" href="/assets/big.js">'.repeat(40)}</head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dist, 'assets/app.js'), 'console.log("app")');
  writeFileSync(join(dist, 'assets/big.js'), script);
  writeFileSync(join(dist, 'assets/big.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets/big.js.gz'), gzipSync(script));
  writeFileSync(join(dist, 'img/logo.png'), 'png');
  writeFileSync(
    join(dist, ROUTE_CHUNKS_FILE),
    JSON.stringify({ dashboard: ['/assets/Dashboard.js', '/assets/api.js'] }),
  );
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the built web app (issue #2)', () => {
  it('serves hashed assets for a year and images for a day, without a session lookup', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['set-cookie']).toBeUndefined();
    const image = await t.app.inject({ method: 'GET', url: '/img/logo.png' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toContain('max-age=86400');
  });

  it('does not serve files outside the asset folders', async () => {
    for (const url of ['/assets/../index.html', '/assets/%2e%2e/index.html', '/img/../../package.json']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).not.toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('injects the CSRF meta tags and initial data into the built page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<script type="module" src="/assets/app.js"></script>');
    expect(page.body).toMatch(/<meta name="_csrf" content="[A-Za-z0-9_-]+">/);
    expect(page.body).toContain('<script type="application/json" id="initial-data">{"user":null');
    // The header's logo is asked for with the scripts, not once they have run (issue 31, phones).
    expect(page.body).toContain('<link rel="preload" as="image" fetchpriority="high" href="/img/logo.png"><title>');
  });

  it("names the page's own chunks of the build as module preloads, and no other page's, and a task page's first reads (issue 31, phones)", async () => {
    const tenants = await createTenants(t.database.db);
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const navigate = (url: string) => client.request({ method: 'GET', url, headers: { accept: 'text/html' } });
    const dashboard = await navigate('/');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/Dashboard.js"><link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/api.js">',
    );
    const profile = await navigate('/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain('/assets/Dashboard.js');
    // A task page's first reads, for the build's early-reads script; signed in only (no other page has them).
    const task = '/backupmachines/7/backuptasks/8';
    expect((await navigate(task)).body).toContain(
      `<script type="application/json" id="early-reads">["${task}","${task}/storage"]</script>`,
    );
    expect(dashboard.body).not.toContain('id="early-reads"');
    const signedOut = await new TestClient(t.app).request({
      method: 'GET',
      url: '/login',
      headers: { accept: 'text/html' },
    });
    expect(signedOut.body).not.toContain('id="early-reads"');
  });
});

describe('serving the built web app compressed (issue 29)', () => {
  const asset = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/assets/big.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the brotli file to a browser that accepts brotli, with the asset headers of the file itself', async () => {
    const response = await asset('gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(response.rawPayload).equals(script)).toBe(true);
  });

  it('sends the gzip file when only gzip is accepted', async () => {
    for (const acceptEncoding of ['gzip', 'gzip, deflate', 'br;q=0, gzip']) {
      const response = await asset(acceptEncoding);
      expect(response.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(gunzipSync(response.rawPayload).equals(script)).toBe(true);
    }
  });

  it('sends the file as it is when no compression is accepted, still saying that the answer varies', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const response = await asset(acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers['cache-control']).toContain('immutable');
      expect(response.rawPayload.equals(script)).toBe(true);
    }
  });

  it('sends a file the build did not compress as it is', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app.js', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log("app")');
  });

  it("never compresses the page, which carries the CSRF token, not even on an API route's address", async () => {
    for (const url of ['/login', '/health']) {
      const page = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
      });
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-encoding'], url).toBeUndefined();
      expect(page.rawPayload.length, url).toBeGreaterThan(1024);
      expect(page.body).toMatch(/<meta name="_csrf" content="[A-Za-z0-9_-]+">/);
    }
  });
});
