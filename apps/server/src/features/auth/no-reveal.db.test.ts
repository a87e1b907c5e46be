import { performance } from 'node:perf_hooks';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signInFailures } from '../../db/schema/index.js';
import { signInPost, TestClient } from '../../testing/client.js';
import { useTestAppWithTenants } from '../../testing/suite.js';

/**
 * Sign-in and password reset requests do not reveal whether an address has an account (issue 18): the same
 * status, body and headers (apart from cookies and request ids), and the same time, for an existing
 * address and an unknown one.
 */
const ctx = useTestAppWithTenants();

const UNKNOWN = 'nobody-here@alpha.test';
const TRIES = 7;

/** What the visitor sees of an answer: everything but cookies and per-request values. */
function visible(response: LightMyRequestResponse) {
  const { 'set-cookie': _cookie, date: _date, 'x-request-id': _id, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

type Prepare = (email: string) => Promise<() => Promise<unknown>>;

/**
 * Times the request `prepare` readies for both addresses (the visitor's page load is not timed),
 * alternating so machine load falls on both alike; checks their medians are within 25 % of each other (or
 * 15 ms, for answers too fast to measure fairly). Work left after an answer settles before the next try.
 * The machine is shared, so a round spoilt by load is measured again, up to three rounds: a real
 * difference (an unknown address answered without the password hash's work) fails every round, always on the same
 * side. Rounds in which the two addresses traded places are load, not a difference (CI's busiest pass showed
 * 242/108, 65/147, 133/57 ms).
 */
async function expectSameTiming(prepare: Prepare) {
  await (await prepare(UNKNOWN))(); // warm-up: the first argon2 call builds the dummy hash
  const rounds: Array<{ known: number; unknown: number }> = [];
  for (let round = 0; round < 3; round++) {
    const { known, unknown } = await timeRound(prepare);
    rounds.push({ known, unknown });
    if (Math.abs(known - unknown) <= Math.max(15, 0.25 * Math.max(known, unknown))) return;
  }
  const sides = new Set(rounds.map((r) => Math.sign(r.known - r.unknown)));
  if (sides.size > 1) return;
  expect.fail(`median times differ by more than 25 %, on the same side, in every round: ${JSON.stringify(rounds)}`);
}

async function timeRound(prepare: Prepare) {
  const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
  for (let i = 0; i < TRIES; i++) {
    for (const [kind, email] of [
      ['known', ctx.tenants.customerA.user.email],
      ['unknown', UNKNOWN],
    ] as const) {
      await ctx.t.database.db.delete(signInFailures);
      const send = await prepare(email);
      const started = performance.now();
      await send();
      times[kind].push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { known: median(times.known), unknown: median(times.unknown) };
}

async function visitor() {
  const client = new TestClient(ctx.t.app);
  await client.open('/login');
  return client;
}

const prepareSignIn = async (email: string) => {
  const client = await visitor();
  return () =>
    client.request(
      signInPost({ username: email, password: 'not the password', _csrf: client.csrf }, { accept: 'text/html' }),
    );
};
const signIn = async (email: string) => (await prepareSignIn(email))();

const prepareForgot = async (email: string) => {
  const client = await visitor();
  return () => client.json('POST', '/forgot-password', { email });
};
const forgot = async (email: string) => (await prepareForgot(email))();

describe('no account enumeration (issue 18)', () => {
  it('a failed sign-in answers alike for an existing and an unknown address', async () => {
    await ctx.t.database.db.delete(signInFailures);
    const known = await signIn(ctx.tenants.customerA.user.email);
    const unknown = await signIn(UNKNOWN);
    expect(visible(known)).toEqual(visible(unknown));
    expect(known.headers.location).toBe('/login?error');
  });

  it('a failed sign-in takes as long for an existing address as for an unknown one', async () => {
    await expectSameTiming(prepareSignIn);
  });

  it('a reset request answers alike, and as fast, for an existing and an unknown address', async () => {
    const known = await forgot(ctx.tenants.customerA.user.email);
    const unknown = await forgot(UNKNOWN);
    expect(visible(known)).toEqual(visible(unknown));
    expect(known.statusCode).toBe(200);
    await expectSameTiming(prepareForgot);
  });
});
