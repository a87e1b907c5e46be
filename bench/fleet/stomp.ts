// Just enough STOMP 1.2 for the simulated agents and browsers: frames written as strings, and the
// server's frames read from WebSocket messages (the server sends one frame, or one heart-beat EOL, per
// message). Lean on purpose: 20,000 of these share a few processes.

/** A client frame; a body gets its content-length (in bytes) and the content type JSON. */
export function stompFrame(command: string, headers: Record<string, string>, body = ''): string {
  let text = `${command}\n`;
  for (const key in headers) text += `${key}:${headers[key]}\n`;
  if (body !== '') text += `content-type:application/json\ncontent-length:${Buffer.byteLength(body)}\n`;
  return `${text}\n${body}\u0000`;
}

export interface ServerFrame {
  command: string;
  headers: Map<string, string>;
  body: string;
}

const NUL = 0;
const LF = 10;

/** A server frame of one message; null for a heart-beat (EOLs only). Headers are read unescaped. */
export function readFrame(data: Buffer): ServerFrame | null {
  let start = 0;
  while (start < data.length && (data[start] === LF || data[start] === 13)) start++;
  if (start >= data.length) return null;
  const headEnd = data.indexOf('\n\n', start);
  if (headEnd === -1) throw new Error('STOMP frame without a blank line after its headers');
  const lines = data.toString('utf8', start, headEnd).split('\n');
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon > 0 && !headers.has(line.slice(0, colon))) headers.set(line.slice(0, colon), line.slice(colon + 1));
  }
  const length = headers.get('content-length');
  const bodyStart = headEnd + 2;
  const bodyEnd = length === undefined ? data.indexOf(NUL, bodyStart) : bodyStart + Number(length);
  return { command: lines[0] as string, headers, body: data.toString('utf8', bodyStart, bodyEnd) };
}

export const HEART_BEAT = '\n';
