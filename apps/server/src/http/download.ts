import type { FastifyReply } from 'fastify';

/** RFC 5987 `ext-value` characters: what encodeURIComponent leaves alone, less ' ( ) * (RFC 8187 attr-char). */
const encodeExtValue = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition: attachment` naming the download (RFC 6266): a quoted ASCII `filename` in which
 * quotes, backslashes and anything outside printable ASCII become '_', and the exact name as `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}

/** The answer as a download: its type and its file name; every download names its file this one way. */
export function asDownload(reply: FastifyReply, type: string, fileName: string): FastifyReply {
  return reply.type(type).header('Content-Disposition', attachmentDisposition(fileName));
}
