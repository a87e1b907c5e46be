import type { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * Just enough of ZIP (stored entries, CRC and sizes after the data, UTF-8 names, ZIP64 where plain ZIP runs
 * out) and of tar (ustar, PAX and GNU long names, as restic's Go writer makes them) to turn the
 * `restic dump -a tar` of several chosen items into one zip as the bytes arrive: nothing is held but the
 * current chunk and one central-directory record per entry.
 */

/** The largest size or offset plain ZIP holds; at or past it the field is 0xFFFFFFFF and ZIP64 holds the value. */
const ZIP32_MAX = 0xffff_ffff;
/** The most entries a plain end record counts. */
const ZIP32_MAX_ENTRIES = 0xffff;
/** APPNOTE 4.5.3: the ZIP64 extended information extra field. */
const ZIP64_EXTRA_ID = 0x0001;
/** Version needed to extract: 2.0 for plain stored entries, 4.5 for ZIP64. */
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
/** Bit 3: CRC and sizes follow the data (the CRC is known only then); bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
/** Central records are sent in batches of about this many bytes rather than one write each. */
const BATCH_BYTES = 64 * 1024;

interface CentralRecord {
  name: string;
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

/** Writes a 64-bit little-endian count (exact up to 2^53, far past any download). */
const writeUInt64 = (buffer: Buffer, value: number, at: number) => buffer.writeBigUInt64LE(BigInt(value), at);

/** A sink for the zip's bytes: undefined when it takes more at once, a promise to wait for otherwise. */
export type ZipSink = (chunk: Buffer) => Promise<void> | undefined;

/**
 * Writes to `out`, and when it asks to wait (backpressure) answers a promise of its 'drain', which fails once it
 * is closed. No promise while it takes more: the chunks of a download are many.
 */
export function writerOf(out: Writable): ZipSink {
  return (chunk) => {
    if (out.destroyed) return Promise.reject(new Error('download stream closed'));
    if (out.write(chunk)) return undefined;
    return new Promise((resolve, reject) => {
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
  };
}

export class ZipWriter {
  private offset = 0;
  private readonly records: CentralRecord[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly write: ZipSink) {}

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    await this.write(chunk);
  }

  /** Whether an entry of this name was written (a folder chosen twice, or inside another chosen one). */
  has(name: string): boolean {
    return this.names.has(name);
  }

  /**
   * One entry; `body` yields exactly `size` bytes when the size is known (null: whatever it yields). Folders end
   * in '/' and have none. A known size past ZIP32_MAX gets a ZIP64 field in its local header; an unknown one that
   * turns out that large gets the ZIP64 data descriptor and central record only, as Go's archive/zip (and so
   * restic's own `dump -a zip`) writes it: readers take sizes from the central directory.
   */
  async add(
    name: string,
    modified: Date,
    size: number | null,
    body: AsyncIterable<Buffer> | Iterable<Buffer> | null,
  ): Promise<void> {
    this.names.add(name);
    const nameLength = Buffer.byteLength(name, 'utf8');
    const { time, date } = dosTime(modified);
    const offset = this.offset;
    const zip64Local = size !== null && size >= ZIP32_MAX;
    const header = Buffer.alloc(30 + nameLength + (zip64Local ? 20 : 0));
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64Local ? VERSION_ZIP64 : VERSION_PLAIN, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    // CRC and sizes are 0 here (bit 3); a ZIP64 local field must still carry both sizes (APPNOTE 4.5.3).
    if (zip64Local) {
      header.writeUInt32LE(ZIP32_MAX, 18);
      header.writeUInt32LE(ZIP32_MAX, 22);
    }
    header.writeUInt16LE(nameLength, 26);
    header.writeUInt16LE(zip64Local ? 20 : 0, 28);
    header.write(name, 30, 'utf8');
    if (zip64Local) {
      header.writeUInt16LE(ZIP64_EXTRA_ID, 30 + nameLength);
      header.writeUInt16LE(16, 32 + nameLength);
    }
    await this.emit(header);
    let crc = 0;
    let written = 0;
    if (body) {
      for await (const chunk of body) {
        crc = crc32(chunk, crc);
        written += chunk.length;
        const wait = this.write(chunk);
        if (wait) await wait;
      }
      this.offset += written;
    }
    if (size !== null && written !== size) throw new Error(`entry ${name}: ${written} bytes instead of ${size}`);
    // APPNOTE 4.3.9: 8-byte sizes in the descriptor when the entry is ZIP64.
    const zip64Descriptor = zip64Local || written >= ZIP32_MAX;
    const descriptor = Buffer.alloc(zip64Descriptor ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (zip64Descriptor) {
      writeUInt64(descriptor, written, 8);
      writeUInt64(descriptor, written, 16);
    } else {
      descriptor.writeUInt32LE(written, 8);
      descriptor.writeUInt32LE(written, 12);
    }
    await this.emit(descriptor);
    this.records.push({ name, crc: crc >>> 0, size: written, offset, time, date, directory: name.endsWith('/') });
  }

  /** One central directory record, with a ZIP64 field holding the size and offset plain ZIP cannot. */
  private static central(record: CentralRecord): Buffer {
    const nameLength = Buffer.byteLength(record.name, 'utf8');
    const bigSize = record.size >= ZIP32_MAX;
    const bigOffset = record.offset >= ZIP32_MAX;
    // APPNOTE 4.5.3: only the fields whose plain value is 0xFFFFFFFF, in this order.
    const extraLength = bigSize || bigOffset ? 4 + (bigSize ? 16 : 0) + (bigOffset ? 8 : 0) : 0;
    const entry = Buffer.alloc(46 + nameLength + extraLength);
    const version = extraLength > 0 ? VERSION_ZIP64 : VERSION_PLAIN;
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(0x0300 | version, 4); // made by: Unix
    entry.writeUInt16LE(version, 6);
    entry.writeUInt16LE(FLAGS, 8);
    entry.writeUInt16LE(0, 10);
    entry.writeUInt16LE(record.time, 12);
    entry.writeUInt16LE(record.date, 14);
    entry.writeUInt32LE(record.crc, 16);
    entry.writeUInt32LE(Math.min(record.size, ZIP32_MAX), 20);
    entry.writeUInt32LE(Math.min(record.size, ZIP32_MAX), 24);
    entry.writeUInt16LE(nameLength, 28);
    entry.writeUInt16LE(extraLength, 30);
    entry.writeUInt32LE((record.directory ? 0o40755 : 0o100644) * 0x10000 + (record.directory ? 0x10 : 0), 38);
    entry.writeUInt32LE(Math.min(record.offset, ZIP32_MAX), 42);
    entry.write(record.name, 46, 'utf8');
    let at = 46 + nameLength;
    if (extraLength > 0) {
      entry.writeUInt16LE(ZIP64_EXTRA_ID, at);
      entry.writeUInt16LE(extraLength - 4, at + 2);
      at += 4;
      if (bigSize) {
        writeUInt64(entry, record.size, at);
        writeUInt64(entry, record.size, at + 8);
        at += 16;
      }
      if (bigOffset) writeUInt64(entry, record.offset, at);
    }
    return entry;
  }

  /**
   * The central directory and its end record; past plain ZIP's limits (more than 65,535 entries, the directory
   * at or past 4 GiB) also the ZIP64 end record and its locator before it (APPNOTE 4.3.14, 4.3.15).
   */
  async finish(): Promise<void> {
    const start = this.offset;
    let batch: Buffer[] = [];
    let batched = 0;
    for (const record of this.records) {
      const entry = ZipWriter.central(record);
      batch.push(entry);
      batched += entry.length;
      if (batched >= BATCH_BYTES) {
        await this.emit(Buffer.concat(batch, batched));
        batch = [];
        batched = 0;
      }
    }
    if (batched > 0) await this.emit(Buffer.concat(batch, batched));
    const count = this.records.length;
    const directorySize = this.offset - start;
    const zip64 = count >= ZIP32_MAX_ENTRIES || directorySize >= ZIP32_MAX || start >= ZIP32_MAX;
    const end = Buffer.alloc(zip64 ? 56 + 20 + 22 : 22);
    let at = 0;
    if (zip64) {
      end.writeUInt32LE(0x06064b50, 0);
      writeUInt64(end, 44, 4); // the size of the record after this field
      end.writeUInt16LE(0x0300 | VERSION_ZIP64, 12);
      end.writeUInt16LE(VERSION_ZIP64, 14);
      writeUInt64(end, count, 24);
      writeUInt64(end, count, 32);
      writeUInt64(end, directorySize, 40);
      writeUInt64(end, start, 48);
      end.writeUInt32LE(0x07064b50, 56);
      writeUInt64(end, this.offset, 64); // where the ZIP64 end record starts
      end.writeUInt32LE(1, 72); // disks in all
      at = 76;
    }
    end.writeUInt32LE(0x06054b50, at);
    end.writeUInt16LE(Math.min(count, ZIP32_MAX_ENTRIES), at + 8);
    end.writeUInt16LE(Math.min(count, ZIP32_MAX_ENTRIES), at + 10);
    end.writeUInt32LE(Math.min(directorySize, ZIP32_MAX), at + 12);
    end.writeUInt32LE(Math.min(start, ZIP32_MAX), at + 16);
    await this.emit(end);
  }
}

const EMPTY = Buffer.alloc(0);
/** Two of these end a tar archive. */
const ZERO_BLOCK = Buffer.alloc(512);

/**
 * Reads exact byte counts from a stream of chunks. Entry bodies are handed on as slices of the chunks as they
 * came; only a tar block that straddles two chunks is copied (512 bytes at most).
 */
class ByteReader {
  private buffered: Buffer = EMPTY;
  private readonly chunks: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async next(): Promise<Buffer | null> {
    const next = await this.chunks.next();
    return next.done ? null : next.value;
  }

  /** Exactly n bytes, or null at the end of the stream (a partial block is an error). */
  async read(n: number): Promise<Buffer | null> {
    if (this.buffered.length >= n) {
      const out = this.buffered.subarray(0, n);
      this.buffered = this.buffered.subarray(n);
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let have = this.buffered.copy(out);
    this.buffered = EMPTY;
    while (have < n) {
      const chunk = await this.next();
      if (chunk === null) {
        if (have === 0) return null;
        throw new Error('tar stream ended inside a block');
      }
      const take = Math.min(n - have, chunk.length);
      chunk.copy(out, have, 0, take);
      have += take;
      this.buffered = chunk.subarray(take);
    }
    return out;
  }

  /** Skips n bytes (a block's padding). */
  async skip(n: number): Promise<void> {
    let left = n;
    while (left > this.buffered.length) {
      left -= this.buffered.length;
      const chunk = await this.next();
      if (chunk === null) throw new Error('tar stream ended inside a block');
      this.buffered = chunk;
    }
    this.buffered = this.buffered.subarray(left);
  }

  /** Reads past whatever is left, so the source ends (a process's output must be read to its end to close). */
  async drain(): Promise<void> {
    this.buffered = EMPTY;
    while ((await this.next()) !== null);
  }

  /** The next n bytes as they arrive. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffered.length === 0) {
        const chunk = await this.next();
        if (chunk === null) throw new Error('tar stream ended inside an entry');
        this.buffered = chunk;
      }
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
    if (block.equals(ZERO_BLOCK)) {
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
      await reader.skip(padding(size));
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
    await reader.skip(padding(realSize));
  }
}
