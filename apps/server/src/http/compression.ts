import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** JSON, whatever its vendor prefix (application/json, application/problem+json). */
const isJson = (contentType: string) => /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType);

/**
 * Compresses answers on the fly by the request's Accept-Encoding (brotli preferred, then gzip), from
 * COMPRESSION_THRESHOLD_BYTES on, with Vary: Accept-Encoding: the envelopes above all, and the other types the
 * MIME database calls compressible (a CSV export, a log file), streamed through the compressor as they are
 * made. Already compressed types (zip, images) and restic's byte streams (application/octet-stream) are not
 * compressed; routes that must stay byte-exact set `compress: false` (the embedded storage, the built web app,
 * which is compressed at build time). Request bodies are never inflated: a client's Content-Encoding is not
 * ours to undo (restic's uploads are stored byte for byte). Must be registered before any route.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    // The library's default also takes application/octet-stream; the MIME database still adds text types.
    customTypes: isJson,
    globalDecompression: false,
  });
}
