/**
 * STOMP 1.2 frames (https://stomp.github.io/stomp-specification-1.2.html): parsing and serialising,
 * header escaping, the NULL terminator, content-length and heart-beat EOLs. Pure code with no I/O:
 * every malformed input yields a `{ ok: false }` result, never a throw.
 */

export interface StompFrame {
  command: string;
  /** In wire order; a repeated header keeps its first value when read with `header()` (STOMP 1.2). */
  headers: Array<[string, string]>;
  body: Buffer;
}

export type DecodeResult =
  | { kind: 'frame'; frame: StompFrame; next: number }
  | { kind: 'heartbeat'; next: number }
  | { kind: 'incomplete' }
  | { kind: 'error'; message: string };

export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
] as const;
export const SERVER_COMMANDS = ['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR'] as const;
const KNOWN_COMMANDS = new Set<string>([...CLIENT_COMMANDS, ...SERVER_COMMANDS]);

/** CONNECT and CONNECTED do not escape headers (STOMP 1.2 'Value Encoding'). */
const unescaped = (command: string) => command === 'CONNECT' || command === 'CONNECTED';

const MAX_HEADERS = 64;
const NUL = 0;
const LF = 10;
const CR = 13;

export function header(frame: StompFrame, name: string): string | undefined {
  for (const [key, value] of frame.headers) if (key === name) return value;
  return undefined;
}

export function escapeHeader(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

/** Undoes escapeHeader; null for an undefined escape sequence (a fatal protocol error in 1.2). */
export function unescapeHeader(value: string): string | null {
  if (!value.includes('\\')) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = value[++i];
    if (next === '\\') out += '\\';
    else if (next === 'r') out += '\r';
    else if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else return null;
  }
  return out;
}

export function frame(command: string, headers: Record<string, string | undefined> = {}, body = ''): StompFrame {
  const list: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) list.push([key, value]);
  return { command, headers: list, body: Buffer.from(body, 'utf8') };
}

/**
 * The frame's bytes. A content-length header is always written for a non-empty body (so a body may
 * hold NUL octets); any content-length the caller put in the headers is replaced.
 */
export function serializeFrame(f: StompFrame): Buffer {
  const encode = unescaped(f.command) ? (s: string) => s : escapeHeader;
  let head = `${f.command}\n`;
  for (const [key, value] of f.headers) {
    if (key === 'content-length') continue;
    head += `${encode(key)}:${encode(value)}\n`;
  }
  if (f.body.length > 0) head += `content-length:${f.body.length}\n`;
  head += '\n';
  // One allocation for head, body and NULL.
  const headLength = Buffer.byteLength(head, 'utf8');
  const out = Buffer.allocUnsafe(headLength + f.body.length + 1);
  out.write(head, 0, 'utf8');
  f.body.copy(out, headLength);
  out[out.length - 1] = NUL;
  return out;
}

/** One line ending at LF (a preceding CR is dropped); null when the buffer holds no LF yet. */
function readLine(buf: Buffer, start: number, limit: number): { line: string; next: number } | null {
  const lf = buf.indexOf(LF, start);
  if (lf === -1 || lf >= limit) return null;
  const end = lf > start && buf[lf - 1] === CR ? lf - 1 : lf;
  return { line: buf.toString('utf8', start, end), next: lf + 1 };
}

/**
 * Decodes what starts at `offset`: a heart-beat EOL, one whole frame, 'incomplete' when more bytes
 * are needed, or an error. A frame (from its command to its NULL) longer than maxFrameBytes is an
 * error even before it is complete, so a peer cannot make the server buffer without bound.
 */
export function decodeNext(buf: Buffer, offset: number, maxFrameBytes: number): DecodeResult {
  try {
    if (offset >= buf.length) return { kind: 'incomplete' };
    if (buf[offset] === LF) return { kind: 'heartbeat', next: offset + 1 };
    if (buf[offset] === CR) {
      if (offset + 1 >= buf.length) return { kind: 'incomplete' };
      if (buf[offset + 1] === LF) return { kind: 'heartbeat', next: offset + 2 };
      return { kind: 'error', message: 'Malformed frame: stray carriage return' };
    }
    const limit = Math.min(buf.length, offset + maxFrameBytes);
    const tooLarge = (): DecodeResult => ({ kind: 'error', message: `Frame larger than ${maxFrameBytes} bytes` });
    const incomplete = (): DecodeResult => (buf.length - offset >= maxFrameBytes ? tooLarge() : { kind: 'incomplete' });

    const commandLine = readLine(buf, offset, limit);
    if (!commandLine) return incomplete();
    const command = commandLine.line;
    if (!KNOWN_COMMANDS.has(command)) return { kind: 'error', message: 'Malformed frame: unknown command' };
    const raw = unescaped(command);
    const headers: Array<[string, string]> = [];
    let pos = commandLine.next;
    for (;;) {
      const line = readLine(buf, pos, limit);
      if (!line) return incomplete();
      pos = line.next;
      if (line.line === '') break;
      if (headers.length >= MAX_HEADERS) return { kind: 'error', message: 'Malformed frame: too many headers' };
      const colon = line.line.indexOf(':');
      if (colon <= 0) return { kind: 'error', message: 'Malformed frame: bad header line' };
      const key = raw ? line.line.slice(0, colon) : unescapeHeader(line.line.slice(0, colon));
      const value = raw ? line.line.slice(colon + 1) : unescapeHeader(line.line.slice(colon + 1));
      if (key === null || value === null) return { kind: 'error', message: 'Malformed frame: bad header escape' };
      headers.push([key, value]);
    }
    const lengthHeader = headers.find(([key]) => key === 'content-length')?.[1];
    let end: number;
    if (lengthHeader !== undefined) {
      if (!/^[0-9]{1,10}$/.test(lengthHeader)) return { kind: 'error', message: 'Malformed frame: bad content-length' };
      const length = Number(lengthHeader);
      end = pos + length;
      if (end + 1 - offset > maxFrameBytes) return tooLarge();
      if (end >= buf.length) return { kind: 'incomplete' };
      if (buf[end] !== NUL) return { kind: 'error', message: 'Malformed frame: body longer than content-length' };
    } else {
      end = buf.indexOf(NUL, pos);
      if (end === -1 || end >= limit) return incomplete();
    }
    return {
      kind: 'frame',
      frame: { command, headers, body: Buffer.from(buf.subarray(pos, end)) },
      next: end + 1,
    };
  } catch (error) {
    return { kind: 'error', message: `Malformed frame: ${error instanceof Error ? error.message : 'unreadable'}` };
  }
}

/** Exactly one frame, nothing but EOLs around it. */
export function parseFrame(
  input: Buffer | string,
  maxFrameBytes: number,
): { ok: true; frame: StompFrame } | { ok: false; error: string } {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  let offset = 0;
  let found: StompFrame | null = null;
  for (;;) {
    const result = decodeNext(buf, offset, maxFrameBytes);
    if (result.kind === 'error') return { ok: false, error: result.message };
    if (result.kind === 'incomplete') {
      if (offset >= buf.length && found) return { ok: true, frame: found };
      return { ok: false, error: found ? 'Trailing bytes after frame' : 'Incomplete frame' };
    }
    if (result.kind === 'frame') {
      if (found) return { ok: false, error: 'More than one frame' };
      found = result.frame;
    }
    offset = result.next;
  }
}

/**
 * A per-connection reader: bytes of WebSocket messages in, frames and heart-beats out. A frame may
 * span messages; what is buffered never exceeds maxFrameBytes. Between messages it holds nothing but
 * the unfinished part of a frame, if any (thousands of idle connections each keep one of these).
 */
export class FrameDecoder {
  private pending: Buffer | null = null;

  constructor(private readonly maxFrameBytes: number) {}

  push(chunk: Buffer): { frames: StompFrame[]; heartbeats: number; error: string | null } {
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let offset = 0;
    for (;;) {
      const result = decodeNext(buf, offset, this.maxFrameBytes);
      if (result.kind === 'error') return { frames, heartbeats, error: result.message };
      if (result.kind === 'incomplete') break;
      if (result.kind === 'heartbeat') heartbeats += 1;
      else frames.push(result.frame);
      offset = result.next;
    }
    this.pending = offset >= buf.length ? null : Buffer.from(buf.subarray(offset));
    return { frames, heartbeats, error: null };
  }
}

export const createFrameDecoder = (maxFrameBytes: number) => new FrameDecoder(maxFrameBytes);
