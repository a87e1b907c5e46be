import type { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * Just enough of ZIP (stored entries, CRC and sizes after the data, UTF-8 names) and of tar
 * (ustar, PAX and GNU long names, as restic's Go writer makes them) to turn the `restic dump -a tar` of
 * several chosen items into one zip as the bytes arrive: nothing is held but the current chunk and one
 * central-directory record per entry.
 */

/** Plain ZIP (no ZIP64): an entry or archive offset past this cannot be written. */
const ZIP32_LIMIT = 0xffff_ffff;

export class ZipLimitError extends Error {}

interface CentralRecord {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
  directory: boolean;
}

function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getFullYear());
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** Writes to `out`, waiting whenever it asks to (backpressure), failing once it is closed. */
export function writerOf(out: Writable): (chunk: Buffer) => Promise<void> {
  return (chunk) =>
    new Promise((resolve, reject) => {
      if (out.destroyed) {
        reject(new Error('download stream closed'));
        return;
      }
      if (out.write(chunk)) {
        resolve();
        return;
      }
      const onDrain = () => {
        out.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        out.off('drain', onDrain);
        reject(new Error('download stream closed'));
      };
      out.once('drain', onDrain);
      out.once('close', onClose);
    });
}

export class ZipWriter {
  private offset = 0;
  private readonly records: CentralRecord[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly write: (chunk: Buffer) => Promise<void>) {}

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (this.offset > ZIP32_LIMIT) throw new ZipLimitError('archive larger than 4 GiB');
    await this.write(chunk);
  }

  /** Whether an entry of this name was written (a folder chosen twice, or inside another chosen one). */
  has(name: string): boolean {
    return this.names.has(name);
  }

  /**
   * One entry; `body` yields exactly `size` bytes when the size is known (null: whatever it yields). Folders end
   * in '/' and have none.
   */
  async add(name: string, modified: Date, size: number | null, body: AsyncIterable<Buffer> | null): Promise<void> {
    if (size !== null && size > ZIP32_LIMIT) throw new ZipLimitError('entry larger than 4 GiB');
    this.names.add(name);
    const nameBytes = Buffer.from(name, 'utf8');
    const { time, date } = dosTime(modified);
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    // Bit 3: CRC and sizes follow the data (the CRC is known only then); bit 11: the name is UTF-8.
    header.writeUInt16LE(0x0808, 6);
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    await this.emit(Buffer.concat([header, nameBytes]));
    let crc = 0;
    let written = 0;
    if (body) {
      for await (const chunk of body) {
        crc = crc32(chunk, crc);
        written += chunk.length;
        await this.emit(chunk);
      }
    }
    if (size !== null && written !== size) throw new Error(`entry ${name}: ${written} bytes instead of ${size}`);
    if (written > ZIP32_LIMIT) throw new ZipLimitError('entry larger than 4 GiB');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(written, 8);
    descriptor.writeUInt32LE(written, 12);
    await this.emit(descriptor);
    this.records.push({
      name: nameBytes,
      crc: crc >>> 0,
      size: written,
      offset,
      time,
      date,
      directory: name.endsWith('/'),
    });
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const record of this.records) {
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(0x0314, 4); // made by: Unix, version 2.0
      entry.writeUInt16LE(20, 6);
      entry.writeUInt16LE(0x0808, 8);
      entry.writeUInt16LE(0, 10);
      entry.writeUInt16LE(record.time, 12);
      entry.writeUInt16LE(record.date, 14);
      entry.writeUInt32LE(record.crc, 16);
      entry.writeUInt32LE(record.size, 20);
      entry.writeUInt32LE(record.size, 24);
      entry.writeUInt16LE(record.name.length, 28);
      entry.writeUInt32LE((record.directory ? 0o40755 : 0o100644) * 0x10000 + (record.directory ? 0x10 : 0), 38);
      entry.writeUInt32LE(record.offset, 42);
      await this.emit(Buffer.concat([entry, record.name]));
    }
    if (this.records.length > 0xffff) throw new ZipLimitError('more than 65535 entries');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }
}

/** Reads exact byte counts from a stream of chunks, keeping at most one chunk. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    const next = await this.chunks.next();
    if (next.done) return false;
    this.buffered = this.buffered.length === 0 ? next.value : Buffer.concat([this.buffered, next.value]);
    return true;
  }

  /** Exactly n bytes, or null at the end of the stream (a partial block is an error). */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffered.length < n) {
      if (!(await this.fill())) {
        if (this.buffered.length === 0) return null;
        throw new Error('tar stream ended inside a block');
      }
    }
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  /** Reads past whatever is left, so the source ends (a process's output must be read to its end to close). */
  async drain(): Promise<void> {
    this.buffered = Buffer.alloc(0);
    while (!(await this.chunks.next()).done);
  }

  /** The next n bytes as they arrive. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffered.length === 0 && !(await this.fill())) throw new Error('tar stream ended inside an entry');
      const take = Math.min(left, this.buffered.length);
      const out = this.buffered.subarray(0, take);
      this.buffered = this.buffered.subarray(take);
      left -= take;
      yield out;
    }
  }
}

export interface TarEntry {
  /** As the tar names it (restic: the snapshot path without its leading '/'); folders end in '/'. */
  name: string;
  kind: 'file' | 'directory' | 'other';
  size: number;
  modified: Date;
  /** The entry's bytes; must be consumed (or skipped by the reader) before the next entry. */
  body: AsyncGenerator<Buffer>;
}

const text = (block: Buffer, start: number, length: number) => {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
};

function number(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if ((field[0] ?? 0) & 0x80) {
    // GNU base-256: big-endian after the marker bit.
    let value = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i += 1) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const digits = text(block, start, length).trim();
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) out.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return out;
}

const padding = (size: number) => (512 - (size % 512)) % 512;

/** The entries of a tar stream, one at a time. */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source);
  let longName: string | null = null;
  let pax = new Map<string, string>();
  for (;;) {
    const block = await reader.read(512);
    if (block === null) return;
    if (block.every((byte) => byte === 0)) {
      // The end-of-archive blocks: nothing more is an entry, but the stream is read to its end.
      await reader.drain();
      return;
    }
    const type = String.fromCharCode(block[156] ?? 0x30);
    const size = number(block, 124, 12);
    if (type === 'x' || type === 'L' || type === 'g') {
      const parts: Buffer[] = [];
      for await (const part of reader.stream(size)) parts.push(part);
      const data = Buffer.concat(parts);
      await reader.read(padding(size));
      if (type === 'x') pax = paxRecords(data);
      if (type === 'L') longName = text(data, 0, data.length);
      continue;
    }
    const prefix = text(block, 257, 6) === 'ustar' ? text(block, 345, 155) : '';
    const ustarName = prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100);
    const name = pax.get('path') ?? longName ?? ustarName;
    const realSize = pax.has('size') ? Number(pax.get('size')) : size;
    const mtime = pax.has('mtime') ? Number(pax.get('mtime')) : number(block, 136, 12);
    pax = new Map();
    longName = null;
    const kind = type === '0' || type === '\0' || type === '7' ? 'file' : type === '5' ? 'directory' : 'other';
    const body = reader.stream(realSize);
    yield { name, kind, size: realSize, modified: new Date(mtime * 1000), body };
    // Whatever the consumer left of the entry is read past here.
    for await (const _ of body);
    await reader.read(padding(realSize));
  }
}
