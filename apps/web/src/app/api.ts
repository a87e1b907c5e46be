import { type Envelope, MESSAGES, type ServerMessage } from '@portal/domain';
import { csrfToken } from './initial-data';

/** A call that did not produce an envelope (network failure, non-JSON answer). */
export class CommunicationError extends Error {
  constructor() {
    super(MESSAGES.communicationError);
  }
}

export interface ApiResult<T> {
  ok: boolean;
  httpStatus: number;
  envelope: Envelope<T>;
}

/**
 * Sends a call and returns its envelope. Throws CommunicationError when no envelope came back, so
 * callers show 'Error in communicating with server.' (000 §8).
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') {
    const { header, token } = csrfToken();
    headers[header] = token;
  }
  let init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body instanceof FormData) {
    init = { ...init, body };
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init = { ...init, body: JSON.stringify(body) };
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new CommunicationError();
  }
  if (response.status === 401 && !path.startsWith('/login')) {
    window.location.assign('/login?expired');
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new CommunicationError();
  }
  if (!envelope || typeof envelope !== 'object' || !('status' in envelope)) throw new CommunicationError();
  return { ok: envelope.status === 'OK', httpStatus: response.status, envelope };
}

/** GET that returns the result or throws; for queries, where a failure shows an empty list. */
export async function getResult<T>(path: string): Promise<T> {
  const { ok, envelope } = await call<T>('GET', path);
  if (!ok || envelope.result === null) throw new CommunicationError();
  return envelope.result;
}

/** Messages a form shows: info messages are ignored (000 §5). */
export function visibleMessages(messages: ServerMessage[]): ServerMessage[] {
  return messages.filter((m) => m.type !== 'INFO');
}
