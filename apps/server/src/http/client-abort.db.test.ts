/**
 * A client that goes away mid-request (a cancelled download, a closed tab) is logged as what it is, at info
 * level; the server's own errors stay errors. Over real connections: app.inject cannot hang up.
 */
import { request as httpRequest } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, listenOnLoopback } from '../features/live/testing.js';
import { createTestApp, type TestApp } from '../testing/app.js';

interface LogLine {
  level: number;
  msg: string;
  err?: unknown;
  code?: string;
}
const INFO = 30;
const ERROR = 50;

let t: TestApp;
let base = '';
const lines: LogLine[] = [];
const logged = (msg: string) => lines.filter((line) => line.msg === msg);

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as LogLine);
      done();
    },
  });
  t = await createTestApp({}, { logger: pino({ level: 'info' }, sink) });
  const access = { config: { access: 'public' as const } };
  // A download whose stream opens (restic started) once the client has already cancelled it.
  t.app.get('/test/cancelled-download', access, async (_request, reply) => {
    await new Promise((resolve) => reply.raw.once('close', resolve));
    return reply.send(new PassThrough());
  });
  // An upload read as a stream, as the REST backend reads restic's.
  t.app.addContentTypeParser('application/x-test-upload', (_request, payload, done) => done(null, payload));
  // Read by the route itself, so outside the CSRF check, as the REST backend's routes are.
  t.app.post('/test/upload', { config: { ...access.config, machineAuth: true } }, async (request) => {
    await pipeline(request.body as NodeJS.ReadableStream, new Writable({ write: (_c, _e, done) => done() }));
    return 'stored';
  });
  // The server's own failure, after a wait in which the client may leave.
  t.app.get('/test/failing', access, async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    throw new Error('the database went away');
  });
  base = (await listenOnLoopback(t.app)).replace(/^ws:/, 'http:');
});
afterAll(() => t.close());
beforeEach(() => {
  lines.length = 0;
});

/** Sends a request (with the start of a body that never ends, when given) and hangs up after a moment. */
function hangUp(method: string, path: string, body?: { contentType: string; start: string }) {
  const request = httpRequest(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': body.contentType, 'content-length': String(body.start.length * 10) } : {},
  });
  request.on('error', () => undefined);
  if (body) request.write(body.start);
  else request.end();
  setTimeout(() => request.destroy(), 100);
}

describe('a client that goes away (issue 14)', () => {
  it('a download cancelled once its stream opened logs no error (Fastify says so at info)', async () => {
    hangUp('GET', '/test/cancelled-download');
    await eventually(() => lines.some((line) => line.msg !== 'incoming request'));
    expect(lines.filter((line) => line.level > INFO)).toEqual([]);
  });

  it('an upload cut off by the client is an info line, not an error', async () => {
    hangUp('POST', '/test/upload', { contentType: 'application/x-test-upload', start: 'part of the body' });
    await eventually(() => logged('request aborted by the client').length === 1);
    expect(logged('request aborted by the client')[0]).toMatchObject({ level: INFO, code: 'ECONNRESET' });
    expect(logged('request aborted by the client')[0]?.err).toBeUndefined();
    expect(lines.filter((line) => line.level > INFO)).toEqual([]);
  });

  it("the server's own error stays an error with its stack, whether the client waits or has left", async () => {
    const waited = await fetch(`${base}/test/failing`);
    expect(waited.status).toBe(500);
    hangUp('GET', '/test/failing');
    await eventually(() => logged('unexpected error').length === 2);
    for (const line of logged('unexpected error')) {
      expect(line).toMatchObject({ level: ERROR, err: { message: 'the database went away' } });
      expect(line.err).toHaveProperty('stack');
    }
    expect(logged('request aborted by the client')).toEqual([]);
  });
});
