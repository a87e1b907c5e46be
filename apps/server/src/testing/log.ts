import { Writable } from 'node:stream';
import pino from 'pino';
import { serverLoggerOptions } from '../logging.js';

/**
 * The server's logger as main.ts makes it (same redaction and serializers), at debug level, writing into
 * memory: tests that drive error paths read it afterwards for the secrets they used.
 */
export function capturedDebugLog() {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    logger: pino(serverLoggerOptions('debug'), sink),
    text: () => text,
    /** The secrets that appear in the log (none, in a passing test). */
    leaked: (secrets: readonly string[]) => secrets.filter((secret) => text.includes(secret)),
  };
}
