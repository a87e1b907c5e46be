/**
 * A generated unique id for a command (001 §9 'Command ids (requestId) are generated unique ids'): a random
 * UUID v4. Built from getRandomValues because crypto.randomUUID exists only on secure pages (https or
 * localhost), and a portal may be served over plain http inside a network.
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
