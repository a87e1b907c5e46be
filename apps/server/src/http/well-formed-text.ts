import { errorMessage, hasLoneSurrogate, MESSAGES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/** An array or a plain object, as JSON and form parsing make them: never a Buffer or stream of a binary body. */
const isParsedJson = (value: unknown): value is object => {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
};

/**
 * The path of the first text in a parsed body (a value or a key) that is not well-formed Unicode, or null.
 * Walked with a stack, not recursion: a body nested thousands deep must not overflow the server's.
 */
export function malformedTextAt(body: unknown): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (hasLoneSurrogate(value)) return path;
    } else if (isParsedJson(value)) {
      const entries = Array.isArray(value)
        ? value.map((item, index) => [String(index), item] as const)
        : Object.entries(value);
      if (entries.some(([key]) => hasLoneSurrogate(key))) return path;
      // Pushed last first, so the fields are looked at in their order and the first bad one is named.
      for (const [key, item] of entries.reverse()) stack.push({ value: item, path: path ? `${path}.${key}` : key });
    }
  }
  return null;
}

/**
 * Refuses a body holding a lone surrogate with a 400 on its field, before any handler reads it: stored, it would
 * silently become U+FFFD, a change the user never made. Registered after the access checks, so a caller who may not
 * call the route learns nothing of its fields.
 */
export function registerWellFormedText(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!isParsedJson(request.body)) return;
    const path = malformedTextAt(request.body);
    if (path === null) return;
    throw new AppError(400, 'VALIDATION_FAILED', [errorMessage(MESSAGES.textNotWellFormed, path, 'VALIDATION_FAILED')]);
  });
}
