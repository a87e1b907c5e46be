import type { Envelope } from '@portal/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { TestClient } from './client.js';
import { FIXTURE_PASSWORD } from './fixtures.js';

/** A client signed in as `email` (checked: the sign-in leads to the dashboard). */
export async function signedInAs(app: FastifyInstance, email: string, password = FIXTURE_PASSWORD) {
  const client = new TestClient(app);
  const response = await client.signIn(email, password);
  expect(response.headers.location, `sign-in of ${email}`).toBe('/');
  return client;
}

/** One signed-in client per key, e.g. `{ provider: email, adminA: email }`, each checked as `signedInAs` does. */
export async function signedInClients<K extends string>(
  app: FastifyInstance,
  emails: Record<K, string>,
): Promise<Record<K, TestClient>> {
  const clients = {} as Record<K, TestClient>;
  for (const [key, email] of Object.entries(emails) as Array<[K, string]>) clients[key] = await signedInAs(app, email);
  return clients;
}

/** The answer's result, after checking its HTTP status. */
export function resultOf<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as Envelope<T>).result as T;
}

/** The answer's messages as the web shows them: on their field, or global (''). */
export const messagesOf = (response: LightMyRequestResponse) =>
  (response.json() as Envelope<unknown>).messages.map((m) => ({ fieldName: m.fieldName, message: m.message }));

/** The fields the answer's messages are on, sorted: which fields of a refused form are told why. */
export const fieldNamesOf = (response: LightMyRequestResponse) =>
  messagesOf(response)
    .map((m) => m.fieldName)
    .sort();
