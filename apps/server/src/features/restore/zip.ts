import type { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * Just enough of ZIP (stored entries, CRC and sizes after the data, UTF-8 names, ZIP64 where plain ZIP runs
 * out) to write several chosen items as one zip as the bytes arrive: a chosen file's bytes become an entry, and
 * a chosen folder's `restic dump -a zip` is passed through entry by entry, its central directory merged into
 * the one written at the end. Nothing is held but the current chunk and one central-directory record per entry.
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
const DATA_DESCRIPTOR_FLAG = 0x0008;
/** Central records are sent in batches of about this many bytes rather than one write each. */
const BATCH_BYTES = 64 * 1024;
/** APPNOTE 4.3.7, 4.3.9, 4.3.12, 4.3.14, 4.3.15, 4.3.16: the records' signatures. */
const SIGNATURE = {
  local: 0x04034b50,
  descriptor: 0x08074b50,
  central: 0x02014b50,
  zip64End: 0x06064b50,
  zip64Locator: 0x07064b50,
  end: 0x06054b50,
} as const;
const EMPTY = Buffer.alloc(0);
const DESCRIPTOR_BYTES = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
/** Room allowed per entry for a copied central record's extra fields (Go's: extended timestamp 9, ZIP64 28). */
const CENTRAL_EXTRA_ALLOWANCE = 64;
/** Room allowed for a copied zip's end records (ZIP64 end record, locator, end record). */
const END_RECORDS_ALLOWANCE = 128;

interface CentralRecord {
  /** As the local header has it: restic's names are bytes, not always UTF-8. */
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
  flags: number;
  /** External attributes (the Unix mode in the high 16 bits). */
  attributes: number;
  /** Extra fields other than ZIP64's, as the entry came with them (restic's extended timestamp). */
  extra: Buffer;
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
  /** The names written, by their bytes (read as latin1: one character per byte). */
  private readonly names = new Set<string>();

  constructor(private readonly write: ZipSink) {}

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    const wait = this.write(chunk);
    if (wait) await wait;
  }

  /** Whether an entry of this name was written (a folder chosen twice, or inside another chosen one). */
  has(name: string): boolean {
    return this.names.has(Buffer.from(name, 'utf8').toString('latin1'));
  }

  /**
   * One file whose size is known only at its end, as Go's archive/zip (and so restic's own `dump -a zip`) writes
   * it: CRC and sizes in the data descriptor after the bytes (the ZIP64 one past ZIP32_MAX), and in the central
   * record, where readers take them from.
   */
  async add(name: string, modified: Date, body: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    this.names.add(nameBytes.toString('latin1'));
    const { time, date } = dosTime(modified);
    const offset = this.offset;
    const header = Buffer.alloc(30 + nameBytes.length);
    header.writeUInt32LE(SIGNATURE.local, 0);
    header.writeUInt16LE(VERSION_PLAIN, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    // CRC and sizes are 0 here (bit 3).
    header.writeUInt16LE(nameBytes.length, 26);
    nameBytes.copy(header, 30);
    await this.emit(header);
    let crc = 0;
    let written = 0;
    for await (const chunk of body) {
      crc = crc32(chunk, crc);
      written += chunk.length;
      const wait = this.write(chunk);
      if (wait) await wait;
    }
    this.offset += written;
    // APPNOTE 4.3.9: 8-byte sizes in the descriptor when the entry is ZIP64.
    const zip64 = written >= ZIP32_MAX;
    const descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(SIGNATURE.descriptor, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (zip64) {
      writeUInt64(descriptor, written, 8);
      writeUInt64(descriptor, written, 16);
    } else {
      descriptor.writeUInt32LE(written, 8);
      descriptor.writeUInt32LE(written, 12);
    }
    await this.emit(descriptor);
    const attributes = 0o100644 * 0x10000;
    this.records.push({
      name: nameBytes,
      crc: crc >>> 0,
      size: written,
      offset,
      time,
      date,
      flags: FLAGS,
      attributes,
      extra: EMPTY,
    });
  }

  /**
   * Passes the local entries of a zip as Go's archive/zip writes them (restic's `dump -a zip`: stored, files with
   * a data descriptor, folders without) through unchanged, but for those whose name was written already; its
   * central directory is not sent but checked against them and merged into the one finish() writes. With a
   * folder, every name is put under it (a panel run's account), the only change made to the entries.
   */
  async copy(source: AsyncIterable<Buffer>, folder = ''): Promise<void> {
    const copier = new ZipCopier((chunk, entry) => this.pass(chunk, entry), Buffer.from(folder, 'utf8'));
    for await (const chunk of source) await copier.take(chunk);
    for (const entry of copier.end()) {
      this.records.push({ ...entry.record, offset: entry.offset });
    }
  }

  /** Sends part of a copied entry, unless its name was written before; its first part fixes its offset. */
  private pass(chunk: Buffer, entry: CopiedEntry): Promise<void> | undefined {
    if (entry.offset === -1) {
      const key = entry.record.name.toString('latin1');
      entry.offset = this.names.has(key) ? -2 : this.offset;
      this.names.add(key);
    }
    if (entry.offset === -2) return undefined;
    this.offset += chunk.length;
    return this.write(chunk);
  }

  /** One central directory record, with a ZIP64 field holding the size and offset plain ZIP cannot. */
  private static central(record: CentralRecord): Buffer {
    const nameLength = record.name.length;
    const bigSize = record.size >= ZIP32_MAX;
    const bigOffset = record.offset >= ZIP32_MAX;
    // APPNOTE 4.5.3: only the fields whose plain value is 0xFFFFFFFF, in this order.
    const zip64Length = bigSize || bigOffset ? 4 + (bigSize ? 16 : 0) + (bigOffset ? 8 : 0) : 0;
    const extraLength = zip64Length + record.extra.length;
    const entry = Buffer.alloc(46 + nameLength + extraLength);
    const version = zip64Length > 0 ? VERSION_ZIP64 : VERSION_PLAIN;
    entry.writeUInt32LE(SIGNATURE.central, 0);
    entry.writeUInt16LE(0x0300 | version, 4); // made by: Unix
    entry.writeUInt16LE(version, 6);
    entry.writeUInt16LE(record.flags, 8);
    entry.writeUInt16LE(0, 10);
    entry.writeUInt16LE(record.time, 12);
    entry.writeUInt16LE(record.date, 14);
    entry.writeUInt32LE(record.crc, 16);
    entry.writeUInt32LE(Math.min(record.size, ZIP32_MAX), 20);
    entry.writeUInt32LE(Math.min(record.size, ZIP32_MAX), 24);
    entry.writeUInt16LE(nameLength, 28);
    entry.writeUInt16LE(extraLength, 30);
    entry.writeUInt32LE(record.attributes, 38);
    entry.writeUInt32LE(Math.min(record.offset, ZIP32_MAX), 42);
    record.name.copy(entry, 46);
    let at = 46 + nameLength;
    if (zip64Length > 0) {
      entry.writeUInt16LE(ZIP64_EXTRA_ID, at);
      entry.writeUInt16LE(zip64Length - 4, at + 2);
      at += 4;
      if (bigSize) {
        writeUInt64(entry, record.size, at);
        writeUInt64(entry, record.size, at + 8);
        at += 16;
      }
      if (bigOffset) {
        writeUInt64(entry, record.offset, at);
        at += 8;
      }
    }
    record.extra.copy(entry, at);
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
      end.writeUInt32LE(SIGNATURE.zip64End, 0);
      writeUInt64(end, 44, 4); // the size of the record after this field
      end.writeUInt16LE(0x0300 | VERSION_ZIP64, 12);
      end.writeUInt16LE(VERSION_ZIP64, 14);
      writeUInt64(end, count, 24);
      writeUInt64(end, count, 32);
      writeUInt64(end, directorySize, 40);
      writeUInt64(end, start, 48);
      end.writeUInt32LE(SIGNATURE.zip64Locator, 56);
      writeUInt64(end, this.offset, 64); // where the ZIP64 end record starts
      end.writeUInt32LE(1, 72); // disks in all
      at = 76;
    }
    end.writeUInt32LE(SIGNATURE.end, at);
    end.writeUInt16LE(Math.min(count, ZIP32_MAX_ENTRIES), at + 8);
    end.writeUInt16LE(Math.min(count, ZIP32_MAX_ENTRIES), at + 10);
    end.writeUInt32LE(Math.min(directorySize, ZIP32_MAX), at + 12);
    end.writeUInt32LE(Math.min(start, ZIP32_MAX), at + 16);
    await this.emit(end);
  }
}

/** An entry of a copied zip: its record as read (offset: in the copied zip) and its offset in the zip written. */
interface CopiedEntry {
  record: CentralRecord;
  /** -1 until its first bytes are passed on; -2 when it is left out (its name was written before). */
  offset: number;
}

/**
 * Reads a zip as Go's archive/zip streams it and hands on its local entries as they arrive. A stored file's size
 * is only in its data descriptor, after its bytes: the descriptor is its signature with, as both sizes, the very
 * count of bytes since the data began, followed by the next signature (by chance, 16 bytes would have to agree).
 * The central directory at the end must then list exactly the entries found, at their offsets, with their
 * sizes and CRCs, or the copy fails: a file made to look like a descriptor fails its download, never makes a
 * wrong zip. Only a header or a descriptor cut by a chunk's end is copied (a few bytes and the next chunk).
 */
class ZipCopier {
  /** Bytes taken but not yet handed on; `at` is their offset in the copied zip. */
  private buffered: Buffer = EMPTY;
  private at = 0;
  private entry: CopiedEntry | null = null;
  private dataStart = 0;
  /** Where the entry's data ends when its header says (folders), -1 when its data descriptor will. */
  private dataEnd = -1;
  private inCentral = false;
  private readonly central: Buffer[] = [];
  private centralLength = 0;
  private centralLimit = END_RECORDS_ALLOWANCE;
  /** By their offset in the copied zip, in its order. */
  private readonly entries = new Map<number, CopiedEntry>();

  constructor(
    private readonly pass: (chunk: Buffer, entry: CopiedEntry) => Promise<void> | undefined,
    /** Put before every name, in the local headers passed on and in the records kept. */
    private readonly folder: Buffer,
  ) {}

  async take(chunk: Buffer): Promise<void> {
    if (this.inCentral) return this.keepCentral(chunk);
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      if (this.inCentral) {
        this.keepCentral(this.buffered);
        this.buffered = EMPTY;
        return;
      }
      const more = this.entry === null ? this.header() : await this.data(this.entry);
      if (!more) return;
    }
  }

  /** Reads the next local header, or notes that the central directory begins; false when more bytes are needed. */
  private header(): boolean {
    const bytes = this.buffered;
    if (bytes.length < 4) return false;
    const signature = bytes.readUInt32LE(0);
    // The central directory, or straight the end records when the zip has no entries (an empty folder).
    if (signature === SIGNATURE.central || signature === SIGNATURE.zip64End || signature === SIGNATURE.end) {
      this.inCentral = true;
      return true;
    }
    if (signature !== SIGNATURE.local) throw new Error('zip copy: no local header where an entry should start');
    if (bytes.length < 30) return false;
    const nameLength = bytes.readUInt16LE(26);
    const length = 30 + nameLength + bytes.readUInt16LE(28);
    if (bytes.length < length) return false;
    if (bytes.readUInt16LE(8) !== 0) throw new Error('zip copy: a compressed entry (only stored ones are copied)');
    const flags = bytes.readUInt16LE(6);
    const record: CentralRecord = {
      // A copy: a slice would keep the whole chunk alive until the download ends.
      name: Buffer.concat([this.folder, bytes.subarray(30, 30 + nameLength)]),
      crc: bytes.readUInt32LE(14),
      size: 0,
      offset: this.at,
      time: bytes.readUInt16LE(10),
      date: bytes.readUInt16LE(12),
      flags,
      attributes: 0,
      extra: EMPTY,
    };
    this.entry = { record, offset: -1 };
    this.entries.set(this.at, this.entry);
    this.centralLimit += 46 + nameLength + CENTRAL_EXTRA_ALLOWANCE;
    this.dataStart = this.at + length;
    if (this.folder.length > 0) this.putUnderFolder(length);
    if (flags & DATA_DESCRIPTOR_FLAG) {
      this.dataEnd = -1;
    } else {
      const size = bytes.readUInt32LE(18);
      if (size === ZIP32_MAX) throw new Error('zip copy: a ZIP64 size in a local header');
      this.dataEnd = this.dataStart + size;
    }
    return true;
  }

  /**
   * Rewrites the local header at the start of the bytes taken with the folder before its name. `at` moves back
   * by the folder's length, so that once the longer header is handed on it counts the copied zip's offsets again.
   */
  private putUnderFolder(length: number): void {
    const bytes = this.buffered;
    const nameLength = bytes.readUInt16LE(26);
    const header = Buffer.allocUnsafe(length + this.folder.length);
    bytes.copy(header, 0, 0, 30);
    header.writeUInt16LE(nameLength + this.folder.length, 26);
    this.folder.copy(header, 30);
    bytes.copy(header, 30 + this.folder.length, 30, length);
    this.buffered = Buffer.concat([header, bytes.subarray(length)]);
    this.at -= this.folder.length;
  }

  /** Hands on the entry's header and data up to its end, when that is in the bytes taken; false when not. */
  private async data(entry: CopiedEntry): Promise<boolean> {
    const bytes = this.buffered;
    const dataAt = Math.max(0, this.dataStart - this.at);
    if (this.dataEnd !== -1) {
      const end = this.dataEnd - this.at;
      if (end > bytes.length) {
        await this.send(bytes.length, entry);
        return false;
      }
      await this.send(end, entry);
      return this.ended(entry, this.dataEnd - this.dataStart);
    }
    for (let from = dataAt; ; ) {
      const found = bytes.indexOf(DESCRIPTOR_BYTES, from);
      if (found === -1) {
        await this.send(bytes.length - signatureStartAtEnd(bytes, dataAt), entry);
        return false;
      }
      const size = this.at + found - this.dataStart;
      const zip64 = size >= ZIP32_MAX;
      const end = found + (zip64 ? 24 : 16);
      // The signature that follows (the next entry's, or the central directory's) is checked too.
      if (end + 4 > bytes.length) {
        await this.send(found, entry);
        return false;
      }
      const sizes = zip64
        ? [Number(bytes.readBigUInt64LE(found + 8)), Number(bytes.readBigUInt64LE(found + 16))]
        : [bytes.readUInt32LE(found + 8), bytes.readUInt32LE(found + 12)];
      const next = bytes.readUInt32LE(end);
      if (sizes[0] === size && sizes[1] === size && (next === SIGNATURE.local || next === SIGNATURE.central)) {
        entry.record.crc = bytes.readUInt32LE(found + 4);
        await this.send(end, entry);
        return this.ended(entry, size);
      }
      from = found + 1;
    }
  }

  private ended(entry: CopiedEntry, size: number): true {
    entry.record.size = size;
    this.entry = null;
    return true;
  }

  /** Hands on the first n bytes taken. */
  private async send(n: number, entry: CopiedEntry): Promise<void> {
    if (n === 0) return;
    const chunk = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    this.at += n;
    const wait = this.pass(chunk, entry);
    if (wait) await wait;
  }

  private keepCentral(chunk: Buffer): void {
    this.central.push(chunk);
    this.centralLength += chunk.length;
    // A central directory is about a hundred bytes per entry: more means the entries were misread.
    if (this.centralLength > this.centralLimit) throw new Error('zip copy: central directory larger than its entries');
  }

  /**
   * Checks the central directory against the entries handed on, and answers those to keep with the central
   * directory's attributes and extra fields (but ZIP64's, which finish() writes anew).
   */
  end(): CopiedEntry[] {
    if (!this.inCentral) throw new Error('zip copy: the zip ended before its central directory');
    const bytes = Buffer.concat(this.central, this.centralLength);
    let at = 0;
    let count = 0;
    while (at + 46 <= bytes.length && bytes.readUInt32LE(at) === SIGNATURE.central) {
      const nameLength = bytes.readUInt16LE(at + 28);
      const extraLength = bytes.readUInt16LE(at + 30);
      const extraStart = at + 46 + nameLength;
      const next = extraStart + extraLength + bytes.readUInt16LE(at + 32);
      if (next > bytes.length) break;
      const sizes = { crc: bytes.readUInt32LE(at + 16), size: bytes.readUInt32LE(at + 20) };
      const fields = { original: bytes.readUInt32LE(at + 24), offset: bytes.readUInt32LE(at + 42) };
      const kept: Buffer[] = [];
      for (let field = extraStart; field + 4 <= extraStart + extraLength; ) {
        const id = bytes.readUInt16LE(field);
        const length = bytes.readUInt16LE(field + 2);
        if (id === ZIP64_EXTRA_ID) {
          // APPNOTE 4.5.3: only the fields whose plain value is 0xFFFFFFFF, in this order.
          let value = field + 4;
          const take = () => {
            const read = Number(bytes.readBigUInt64LE(value));
            value += 8;
            return read;
          };
          if (fields.original === ZIP32_MAX) fields.original = take();
          if (sizes.size === ZIP32_MAX) sizes.size = take();
          if (fields.offset === ZIP32_MAX) fields.offset = take();
        } else {
          kept.push(bytes.subarray(field, field + 4 + length));
        }
        field += 4 + length;
      }
      const entry = this.entries.get(fields.offset);
      const record = entry?.record;
      if (
        !record?.name.subarray(this.folder.length).equals(bytes.subarray(at + 46, at + 46 + nameLength)) ||
        record.size !== sizes.size ||
        fields.original !== sizes.size ||
        record.crc !== sizes.crc
      ) {
        throw new Error('zip copy: the central directory does not list the entries read');
      }
      record.attributes = bytes.readUInt32LE(at + 38);
      record.extra = Buffer.concat(kept);
      count += 1;
      at = next;
    }
    const endSignature = at + 4 <= bytes.length ? bytes.readUInt32LE(at) : 0;
    if (count !== this.entries.size || (endSignature !== SIGNATURE.zip64End && endSignature !== SIGNATURE.end)) {
      throw new Error('zip copy: the central directory does not list the entries read');
    }
    return [...this.entries.values()].filter((entry) => entry.offset >= 0);
  }
}

/** How many of the last bytes (none before `from`) may begin a data descriptor's signature cut by the chunk's end. */
function signatureStartAtEnd(bytes: Buffer, from: number): number {
  for (let k = Math.min(3, bytes.length - from); k > 0; k -= 1) {
    if (bytes.subarray(bytes.length - k).equals(DESCRIPTOR_BYTES.subarray(0, k))) return k;
  }
  return 0;
}
