import { AGENT_CHANNEL } from '@portal/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_COMMANDS,
  createFrameDecoder,
  escapeHeader,
  frame,
  header,
  parseFrame,
  SERVER_COMMANDS,
  type StompFrame,
  serializeFrame,
  unescapeHeader,
} from './stomp-frame.js';

const MAX = AGENT_CHANNEL.maxFrameBytes;

const escapedCommands = [...CLIENT_COMMANDS, ...SERVER_COMMANDS].filter((c) => c !== 'CONNECT' && c !== 'CONNECTED');

const frameArb = fc.oneof(
  // Escaped commands: any header text round-trips.
  fc.record({
    command: fc.constantFrom(...escapedCommands),
    headers: fc.array(
      fc.tuple(
        fc.string({ minLength: 1, maxLength: 20 }).filter((k) => k !== 'content-length'),
        fc.string({ maxLength: 40 }),
      ),
      { maxLength: 8 },
    ),
    body: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  }),
  // CONNECT/CONNECTED are not escaped: names without ':' and no line breaks.
  fc.record({
    command: fc.constantFrom('CONNECT', 'CONNECTED'),
    headers: fc.array(
      fc.tuple(
        fc.stringMatching(/^[a-z-]{1,12}$/).filter((k) => k !== 'content-length'),
        fc.string({ maxLength: 40 }).filter((v) => !/[\r\n]/.test(v)),
      ),
      { maxLength: 8 },
    ),
    body: fc.constant(Buffer.alloc(0)),
  }),
);

describe('STOMP frame codec', () => {
  it('serialises a frame with content-length and a NULL terminator', () => {
    const bytes = serializeFrame(frame('SEND', { destination: '/a:b' }, 'hi'));
    expect(bytes.toString('utf8')).toBe('SEND\ndestination:/a\\cb\ncontent-length:2\n\nhi\0');
  });

  it('does not escape CONNECT headers', () => {
    const parsed = parseFrame('CONNECT\naccept-version:1.2\nhost:a:b\n\n\0', MAX);
    expect(parsed.ok && header(parsed.frame, 'host')).toBe('a:b');
  });

  it('reads CRLF line endings, a body without content-length and heart-beat EOLs around the frame', () => {
    const parsed = parseFrame('\r\n\nSEND\r\ndestination:/x\r\n\r\nbody\0\n', MAX);
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.frame.command).toBe('SEND');
    expect(header(parsed.frame, 'destination')).toBe('/x');
    expect(parsed.frame.body.toString()).toBe('body');
  });

  it('keeps the first of repeated headers', () => {
    const parsed = parseFrame('MESSAGE\nfoo:World\nfoo:Hello\n\n\0', MAX);
    expect(parsed.ok && header(parsed.frame, 'foo')).toBe('World');
  });

  it('reads a body holding NUL octets when content-length says so', () => {
    const parsed = parseFrame(Buffer.from('SEND\ncontent-length:3\n\na\0b\0'), MAX);
    expect(parsed.ok && [...parsed.frame.body]).toEqual([97, 0, 98]);
  });

  it('refuses malformed frames with an error', () => {
    const bad = [
      'NOPE\n\n\0',
      'SEND\nno-colon\n\n\0',
      'SEND\n:empty-name\n\n\0',
      'SEND\nbad:\\x\n\n\0',
      'SEND\ncontent-length:abc\n\n\0',
      'SEND\ncontent-length:1\n\nabc\0',
      'SEND\n\nunterminated',
      'SEND\n\na\0SEND\n\nb\0',
      'SEND\n\na\0garbage',
      '\rSEND\n\n\0',
    ];
    for (const input of bad) expect(parseFrame(input, MAX).ok, JSON.stringify(input)).toBe(false);
  });

  it('refuses a frame larger than the limit, even before it is complete', () => {
    expect(parseFrame(`SEND\n\n${'x'.repeat(100)}\0`, 64)).toEqual({ ok: false, error: 'Frame larger than 64 bytes' });
    expect(parseFrame('SEND\ncontent-length:1000\n\n', 64).ok).toBe(false);
    const decoder = createFrameDecoder(64);
    expect(decoder.push(Buffer.from(`SEND\n\n${'x'.repeat(40)}`)).error).toBeNull();
    expect(decoder.push(Buffer.from('x'.repeat(40))).error).toBe('Frame larger than 64 bytes');
  });

  it('decodes frames split across and packed into messages', () => {
    const decoder = createFrameDecoder(MAX);
    const bytes = Buffer.concat([
      serializeFrame(frame('SEND', { destination: '/a' }, 'one')),
      Buffer.from('\n\n'),
      serializeFrame(frame('SEND', { destination: '/b' }, 'two')),
    ]);
    const first = decoder.push(bytes.subarray(0, 10));
    const second = decoder.push(bytes.subarray(10));
    expect(first.frames).toHaveLength(0);
    expect(second.frames.map((f) => f.body.toString())).toEqual(['one', 'two']);
    expect(second.heartbeats).toBe(2);
  });

  it('property: escaping round-trips', () => {
    fc.assert(fc.property(fc.string(), (s) => unescapeHeader(escapeHeader(s)) === s));
  });

  it('property: serialise then parse gives the frame back', () => {
    fc.assert(
      fc.property(frameArb, (f: StompFrame) => {
        const parsed = parseFrame(serializeFrame(f), MAX);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.frame.command).toBe(f.command);
        const expectedHeaders =
          f.body.length > 0 ? [...f.headers, ['content-length', String(f.body.length)]] : f.headers;
        expect(parsed.frame.headers).toEqual(expectedHeaders);
        expect(parsed.frame.body.equals(f.body)).toBe(true);
      }),
    );
  });

  it('property: a stream of frames cut anywhere decodes to the same frames', () => {
    fc.assert(
      fc.property(
        fc.array(frameArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 50 }),
        (frames, cut) => {
          const bytes = Buffer.concat(frames.map(serializeFrame));
          const decoder = createFrameDecoder(MAX);
          const out: StompFrame[] = [];
          for (let i = 0; i < bytes.length; i += cut) {
            const result = decoder.push(bytes.subarray(i, i + cut));
            expect(result.error).toBeNull();
            out.push(...result.frames);
          }
          expect(out.map((f) => f.command)).toEqual(frames.map((f) => f.command));
        },
      ),
    );
  });

  it('property: arbitrary bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const parsed = parseFrame(Buffer.from(bytes), 256);
        expect(typeof parsed.ok).toBe('boolean');
        const decoded = createFrameDecoder(256).push(Buffer.from(bytes));
        expect(Array.isArray(decoded.frames)).toBe(true);
      }),
    );
  });

  it('property: mutated valid frames yield a frame or an error, never a throw', () => {
    fc.assert(
      fc.property(frameArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (f, at, byte) => {
        const bytes = Buffer.from(serializeFrame(f));
        bytes[at % bytes.length] = byte;
        const parsed = parseFrame(bytes, MAX);
        expect(parsed.ok || typeof parsed.error === 'string').toBe(true);
      }),
    );
  });
});
