import { connect } from 'node:net';
import { type Envelope, MESSAGES, ROUTES } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInPost, TestClient } from '../testing/client.js';
import { signedInAs } from '../testing/envelope.js';
import { FIXTURE_PASSWORD } from '../testing/fixtures.js';
import { useTestAppWithTenants } from '../testing/suite.js';

/** Issue 29 item 6: every answer is the envelope, and a caller with no session is told to sign in first. */
const ctx = useTestAppWithTenants();
let port: number;

beforeAll(async () => {
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

/** Sends raw bytes to the listening server and reads the whole answer until the server closes. */
function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(bytes);
  });
}

const envelopeOf = (body: string) => JSON.parse(body) as Envelope<null>;

describe('requests the HTTP parser refuses get the envelope', () => {
  it('answers a 20 KB address with 431 and the envelope, then closes', async () => {
    const answer = await raw(`GET /profile?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(envelopeOf(answer.body)).toMatchObject({
      status: 'ERROR',
      responseSummaryCode: 'BAD_REQUEST',
      result: null,
      messages: [{ type: 'ERROR', fieldName: '', message: MESSAGES.requestHeadersTooLarge }],
    });
  });

  it('answers a 20 KB header the same way', async () => {
    const answer = await raw(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'y'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(envelopeOf(answer.body).messages[0]?.message).toBe(MESSAGES.requestHeadersTooLarge);
  });

  it('answers bytes that are no HTTP with 400 and the envelope', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(envelopeOf(answer.body)).toMatchObject({
      status: 'ERROR',
      responseSummaryCode: 'BAD_REQUEST',
      messages: [{ message: MESSAGES.requestUnreadable }],
    });
  });

  it('still answers a request of ordinary size on the same server', async () => {
    const answer = await raw('GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(404);
    expect(envelopeOf(answer.body).responseSummaryCode).toBe('NOT_FOUND');
  });
});

describe('a state change with no session is answered 401 before the CSRF check', () => {
  const bare = (method: 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string) =>
    ctx.t.app.inject({
      method,
      url,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: '{}',
    });

  it('POST, PUT and DELETE with no cookie and no token: 401, not 403', async () => {
    for (const [method, url] of [
      ['POST', ROUTES.apiTokens.create.build()],
      ['PUT', ROUTES.profile.update.build()],
      ['DELETE', ROUTES.users.remove.build({ userId: ctx.tenants.customerA.user.id })],
    ] as const) {
      const response = await bare(method, url);
      expect({ method, status: response.statusCode }).toEqual({ method, status: 401 });
      expect(response.json()).toMatchObject({ status: 'ERROR', responseSummaryCode: 'UNAUTHENTICATED' });
    }
    // A session that is gone (signed out, expired) is no session either.
    const stale = await bare('PUT', ROUTES.profile.update.build(), 'portal_session=not-a-session');
    expect(stale.statusCode).toBe(401);
  });

  it('with a session but no CSRF token: still 403, form expired', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.user.email);
    const response = await bare(
      'PUT',
      ROUTES.profile.update.build(),
      `portal_session=${client.cookie('portal_session')}`,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().messages[0].message).toBe(MESSAGES.csrfRejected);
  });

  it('public state changes (sign in, sign up, forgot password) keep their CSRF check', async () => {
    const signIn = await ctx.t.app.inject(
      signInPost({ username: ctx.tenants.customerA.user.email, password: FIXTURE_PASSWORD }),
    );
    expect(signIn.statusCode).toBe(403);
    expect(signIn.headers['set-cookie'] ?? '').not.toContain('portal_session=');
    for (const url of [ROUTES.signUp.submit.build(), ROUTES.auth.forgotPassword.build()]) {
      const response = await bare('POST', url);
      expect({ url, code: response.json().responseSummaryCode }).toEqual({ url, code: 'CSRF_REJECTED' });
    }
    // With the visitor's token they go through to their own checks.
    const visitor = new TestClient(ctx.t.app);
    await visitor.open('/login');
    const forgot = await visitor.json('POST', ROUTES.auth.forgotPassword.build(), { email: 'nobody@example.test' });
    expect(forgot.statusCode).toBeLessThan(403);
  });
});
