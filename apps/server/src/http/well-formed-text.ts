import { errorMessage, hasLoneSurrogate, MESSAGES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/**
 * A JSON escape of a surrogate (`\ud800`): UTF-8 decoding never makes a lone surrogate, so a body without such an
 * escape cannot hold one and is not walked (a megabyte of JSON is matched in about a millisecond).
 */
export const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** An array or a plain object, as JSON parsing makes them: never a Buffer or stream of a binary body. */
const isParsedJson = (value: unknown): value is object => {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
};

interface Node {
  value: object;
  parent: Node | null;
  key: string;
}

const pathOf = (node: Node, key: string | null): string => {
  const keys = key === null ? [] : [key];
  for (let at: Node | null = node; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * The path of the first text in a parsed body (a value or a key) that is not well-formed Unicode, or null. Walked
 * with a stack, not recursion, so a body nested thousands deep cannot overflow the server's; a primitive costs no
 * allocation and a path is built only for the text at fault.
 */
export function malformedTextAt(body: unknown): string | null {
  if (typeof body === 'string') return hasLoneSurrogate(body) ? '' : null;
  if (!isParsedJson(body)) return null;
  const stack: Node[] = [{ value: body, parent: null, key: '' }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const value = node.value as Record<string, unknown>;
    const keys = Array.isArray(value) ? null : Object.keys(value);
    const count = keys ? keys.length : (value as unknown as unknown[]).length;
    const nested: Node[] = [];
    for (let i = 0; i < count; i++) {
      const key = keys ? (keys[i] as string) : String(i);
      if (keys && hasLoneSurrogate(key)) return pathOf(node, null);
      const item = keys ? value[key] : (value as unknown as unknown[])[i];
      if (typeof item === 'string') {
        if (hasLoneSurrogate(item)) return pathOf(node, key);
      } else if (item !== null && typeof item === 'object') {
        nested.push({ value: item, parent: node, key });
      }
    }
    // Pushed last first, so the nested values are looked at in their order.
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i] as Node);
  }
  return null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body spelled a surrogate as an escape: it is walked for a lone one before any handler. */
    surrogateEscapes: boolean;
  }
}

/**
 * Refuses a JSON body holding a lone surrogate with a 400 on its field, before any handler reads it: stored, it
 * would silently become U+FFFD, a change the user never made. The JSON parser stays Fastify's own (with its
 * prototype-poisoning checks); it only notes whether the text holds a surrogate escape. The check runs after the
 * access checks, so a caller who may not call the route learns nothing of its fields.
 */
export function registerWellFormedText(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.decorateRequest('surrogateEscapes', false);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.surrogateEscapes = SURROGATE_ESCAPE.test(text);
    parseJson(request, text, done);
  });
  app.addHook('preHandler', async (request) => {
    if (!request.surrogateEscapes) return;
    const path = malformedTextAt(request.body);
    if (path === null) return;
    throw new AppError(400, 'VALIDATION_FAILED', [errorMessage(MESSAGES.textNotWellFormed, path, 'VALIDATION_FAILED')]);
  });
}
