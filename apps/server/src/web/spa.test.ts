import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'img'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><title>Cloud Portal</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets/app.js'), 'console.log("app")');
  writeFileSync(join(dist, 'img/logo.png'), 'png');
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
  });
});
