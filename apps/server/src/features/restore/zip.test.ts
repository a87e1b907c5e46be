/**
 * The zip the chosen-items download writes, read back by a real reader (Python's zipfile, which checks every
 * entry's CRC and reads ZIP64 as the APPNOTE has it): plain ZIP while it fits, ZIP64 past 65,535 entries and
 * past 4 GiB; and the copy of zips as Go's archive/zip streams them (restic's `dump -a zip`), whatever the
 * chunks. The 4 GiB cases stream zeros from memory (written back sparse), so nothing of that size is kept in
 * memory or on disk.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { writerOf, ZipWriter } from './zip.js';

const GiB = 1024 ** 3;
const tmp = mkdtempSync(join(tmpdir(), 'portal-zip-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ZEROS = Buffer.alloc(1024 * 1024);

/** A zip file written as the writer sends it; runs of zeros are left as holes, so 4 GiB take no disk. */
function sparseSink(file: string) {
  const fd = openSync(file, 'w');
  let at = 0;
  return {
    write(chunk: Buffer): undefined {
      if (!(chunk.length <= ZEROS.length && chunk.equals(ZEROS.subarray(0, chunk.length))))
        writeSync(fd, chunk, 0, chunk.length, at);
      at += chunk.length;
      return undefined;
    },
    close() {
      // The file ends where the zip does, even after a hole.
      truncateSync(file, at);
      closeSync(fd);
    },
  };
}

interface Listed {
  name: string;
  size: number;
  offset: number;
  crc: number;
  /** The entry's bytes as text, for entries of at most 64 bytes. */
  text: string | null;
}

/**
 * What Python's zipfile reads: every entry's name, size, offset and CRC, and whether the ZIP64 end locator is
 * there; entries of at most 64 bytes are read whole (which checks their CRC and that their offsets are right).
 * The huge entries are not read back: their CRC is compared with the one their bytes have, which halves the time.
 */
function pythonRead(file: string): { entries: Listed[]; zip64End: boolean } {
  const script = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    entries = [{'name': i.filename, 'size': i.file_size, 'offset': i.header_offset, 'crc': i.CRC,
                'text': z.read(i).decode() if i.file_size <= 64 else None} for i in z.infolist()]
with open(sys.argv[1], 'rb') as f:
    f.seek(-42, 2)
    zip64End = f.read(4) == b'PK\\x06\\x07'
print(json.dumps({'entries': entries, 'zip64End': zip64End}))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

const modified = new Date('2026-11-25T10:20:30Z');

/** A zip written by `write` into memory, as the chunks the writer sent. */
async function zipInMemory(write: (zip: ZipWriter) => Promise<void>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  const zip = new ZipWriter((chunk) => {
    chunks.push(Buffer.from(chunk));
    return undefined;
  });
  await write(zip);
  await zip.finish();
  return chunks;
}

/** Chunks as a stream hands them on. */
async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
  yield* parts;
}

/** The same bytes cut into chunks of `size` bytes. */
function* cut(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The zip `write` makes, read back by Python from a file. */
async function written(name: string, write: (zip: ZipWriter) => Promise<void>) {
  const file = join(tmp, name);
  writeFileSync(file, Buffer.concat(await zipInMemory(write)));
  return { file, read: pythonRead(file) };
}

/**
 * A zip as Go's archive/zip streams it: a folder entry without a data descriptor (sizes 0 in its header), then
 * files with one (CRC and sizes 0 in the header), the central directory with Unix modes and the extended
 * timestamp field; written out byte by byte as the APPNOTE has it.
 */
function goZip(entries: Array<{ name: string; data: Buffer | null }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const timestamp = Buffer.from([0x55, 0x54, 5, 0, 1, 0x3d, 0xfa, 0x08, 0x6b]);
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(data ? 0x0008 : 0, 6);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(timestamp.length, 28);
    parts.push(header, nameBytes, timestamp);
    const crc = data ? crc32(data) : 0;
    const size = data?.length ?? 0;
    if (data) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      parts.push(data, descriptor);
    }
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(0x0314, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(data ? 0x0008 : 0, 8);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(size, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt16LE(timestamp.length, 30);
    record.writeUInt32LE((data ? 0o100600 : 0o40700) * 0x10000, 38);
    record.writeUInt32LE(offset, 42);
    central.push(record, nameBytes, timestamp);
    offset += 30 + nameBytes.length + timestamp.length + size + (data ? 16 : 0);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

describe('the written zip', () => {
  it('stays plain ZIP while it fits: no ZIP64 field or record', async () => {
    const { file, read } = await written('small.zip', async (zip) => {
      await zip.add('docs/a.txt', modified, [Buffer.from('alpha\n')]);
      await zip.add('docs/ü.txt', modified, [Buffer.from('un'), Buffer.from('known')]);
    });
    expect(read.zip64End).toBe(false);
    expect(read.entries.map(({ name, text }) => ({ name, text }))).toEqual([
      { name: 'docs/a.txt', text: 'alpha\n' },
      { name: 'docs/ü.txt', text: 'unknown' },
    ]);
    const bytes = readFileSync(file);
    // Version needed 2.0 everywhere, and no ZIP64 extra field (id 0x0001) or end record signature.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(false);
    expect(bytes.readUInt16LE(4)).toBe(20);
    expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
  });

  it('writes more than 65,535 entries with the ZIP64 end record and locator', async () => {
    const count = 70_000;
    const { read } = await written('many.zip', async (zip) => {
      for (let i = 0; i < count; i += 1) await zip.add(`f${i}.txt`, modified, [Buffer.from(`${i}`)]);
    });
    expect(read.zip64End).toBe(true);
    expect(read.entries).toHaveLength(count);
    expect(read.entries[count - 1]).toMatchObject({ name: `f${count - 1}.txt`, text: `${count - 1}` });
  }, 120_000);
});

describe('a copied zip', () => {
  // Data that holds a descriptor's signature, but not followed by its own size: it must not end the entry.
  const tricky = Buffer.concat([Buffer.from('PK\x07\x08'), Buffer.alloc(12, 0), Buffer.from('PK\x07\x08PK')]);
  const folder = goZip([
    { name: 'srv/docs/', data: null },
    { name: 'srv/docs/a.txt', data: Buffer.from('alpha\n') },
    { name: 'srv/docs/tricky.bin', data: tricky },
    { name: 'srv/docs/empty.txt', data: Buffer.alloc(0) },
  ]);

  it('passes the local entries through unchanged in chunks of any size, and lists them with the central directory’s modes', async () => {
    const whole = Buffer.concat(
      await zipInMemory(async (zip) => {
        await zip.add('first.txt', modified, [Buffer.from('first\n')]);
        await zip.copy(chunks(folder));
      }),
    );
    const entriesEnd = folder.indexOf(Buffer.from('PK\x01\x02'));
    expect(whole.includes(folder.subarray(0, entriesEnd))).toBe(true);
    for (const size of [1, 2, 3, 5, 17, 31, 64, 1000]) {
      const chunked = Buffer.concat(
        await zipInMemory(async (zip) => {
          await zip.add('first.txt', modified, [Buffer.from('first\n')]);
          await zip.copy(chunks(...cut(folder, size)));
        }),
      );
      expect(chunked.equals(whole)).toBe(true);
    }
    const file = join(tmp, 'copied.zip');
    writeFileSync(file, whole);
    expect(pythonRead(file).entries.map(({ name, text }) => ({ name, text }))).toEqual([
      { name: 'first.txt', text: 'first\n' },
      { name: 'srv/docs/', text: '' },
      { name: 'srv/docs/a.txt', text: 'alpha\n' },
      { name: 'srv/docs/tricky.bin', text: tricky.toString() },
      { name: 'srv/docs/empty.txt', text: '' },
    ]);
    const modes = execFileSync('python3', [
      '-c',
      'import sys, zipfile; print(" ".join(oct(i.external_attr >> 16) for i in zipfile.ZipFile(sys.argv[1]).infolist()))',
      file,
    ]);
    expect(String(modes).trim()).toBe('0o100644 0o40700 0o100600 0o100600 0o100600');
    expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
  });

  it('copies a zip with no entries (an empty folder) as nothing', async () => {
    const { read } = await written('empty.zip', async (zip) => {
      await zip.copy(chunks(goZip([])));
      await zip.add('only.txt', modified, [Buffer.from('only\n')]);
    });
    expect(read.entries.map(({ name, offset }) => ({ name, offset }))).toEqual([{ name: 'only.txt', offset: 0 }]);
  });

  it('leaves out the entries whose names were written before (a folder chosen twice, or inside another)', async () => {
    const { read } = await written('twice.zip', async (zip) => {
      await zip.add('srv/docs/a.txt', modified, [Buffer.from('chosen first\n')]);
      await zip.copy(chunks(folder));
      await zip.copy(chunks(...cut(folder, 7)));
    });
    expect(read.entries.map(({ name, text }) => ({ name, text }))).toEqual([
      { name: 'srv/docs/a.txt', text: 'chosen first\n' },
      { name: 'srv/docs/', text: '' },
      { name: 'srv/docs/tricky.bin', text: tricky.toString() },
      { name: 'srv/docs/empty.txt', text: '' },
    ]);
  });

  it('puts every copied name under a folder (a panel run’s account), in chunks of any size, the bytes unchanged', async () => {
    const expected = [
      { name: 'ana/srv/docs/', text: '' },
      { name: 'ana/srv/docs/a.txt', text: 'alpha\n' },
      { name: 'ana/srv/docs/tricky.bin', text: tricky.toString() },
      { name: 'ana/srv/docs/empty.txt', text: '' },
      { name: 'bob/srv/docs/', text: '' },
      { name: 'bob/srv/docs/a.txt', text: 'alpha\n' },
      { name: 'bob/srv/docs/tricky.bin', text: tricky.toString() },
      { name: 'bob/srv/docs/empty.txt', text: '' },
    ];
    for (const size of [1, 3, 31, 1000]) {
      const { file, read } = await written(`accounts-${size}.zip`, async (zip) => {
        await zip.copy(chunks(...cut(folder, size)), 'ana/');
        await zip.copy(chunks(...cut(folder, size)), 'bob/');
        // Already written under ana/: left out.
        await zip.copy(chunks(folder), 'ana/');
      });
      expect(read.entries.map(({ name, text }) => ({ name, text }))).toEqual(expected);
      expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
    }
  });

  it('fails when the central directory does not list what was read, or the zip stops short', async () => {
    // A file made to look like its own end: a descriptor for its first 0 bytes, then a local header.
    const forged = goZip([{ name: 'forged.bin', data: Buffer.concat([Buffer.alloc(16), Buffer.from('PK\x03\x04')]) }]);
    forged.write('PK\x07\x08', 30 + 'forged.bin'.length + 9, 'latin1');
    await expect(zipInMemory((zip) => zip.copy(chunks(forged)))).rejects.toThrow(/zip copy/);
    const lying = Buffer.from(folder);
    // The CRC of the second entry's central record.
    const second = lying.indexOf(Buffer.from('PK\x01\x02'), lying.indexOf(Buffer.from('PK\x01\x02')) + 1);
    lying.writeUInt32LE(0xdeadbeef, second + 16);
    await expect(zipInMemory((zip) => zip.copy(chunks(lying)))).rejects.toThrow(/central directory/);
    await expect(zipInMemory((zip) => zip.copy(chunks(folder.subarray(0, 100))))).rejects.toThrow(/ended/);
    await expect(zipInMemory((zip) => zip.copy(chunks(Buffer.from('not a zip at all'))))).rejects.toThrow(
      /local header/,
    );
  });
});

describe('past 4 GiB', () => {
  it('writes entries over 4 GiB and copies a zip with one, at offsets past 4 GiB', async () => {
    // 4 GiB + 6 bytes of zeros ending in 'tail!\n'.
    const hugeSize = 4 * GiB + 6;
    const hugeBytes = function* () {
      for (let i = 0; i < 4096; i += 1) yield ZEROS;
      yield Buffer.from('tail!\n');
    };
    let hugeCrc = 0;
    for (const chunk of hugeBytes()) hugeCrc = crc32(chunk, hugeCrc);

    const file = join(tmp, 'big.zip');
    const sink = sparseSink(file);
    const zip = new ZipWriter(sink.write);
    // A chosen file is dumped as its bare bytes: its size known only at its end.
    await zip.add('raw/huge.bin', modified, hugeBytes());
    // A folder's zip as restic streams it, with a ZIP64 data descriptor and central record, copied after it.
    const folder = new PassThrough({ highWaterMark: 1024 * 1024 });
    const inner = new ZipWriter(writerOf(folder));
    const writing = (async () => {
      await inner.add('dir/huge.bin', modified, hugeBytes());
      await inner.add('dir/after.txt', modified, [Buffer.from('after\n')]);
      await inner.finish();
      folder.end();
    })();
    await zip.copy(folder);
    await writing;
    await zip.add('raw/last.txt', modified, [Buffer.from('last\n')]);
    await zip.finish();
    sink.close();

    const read = pythonRead(file);
    expect(read.zip64End).toBe(true);
    const [rawHuge, dirHuge, dirAfter, rawLast] = read.entries;
    expect(rawHuge).toMatchObject({ name: 'raw/huge.bin', size: hugeSize, offset: 0, crc: hugeCrc >>> 0 });
    expect(dirHuge).toMatchObject({ name: 'dir/huge.bin', size: hugeSize, crc: hugeCrc >>> 0 });
    expect(dirHuge?.offset).toBeGreaterThan(4 * GiB);
    expect(dirAfter).toMatchObject({ name: 'dir/after.txt', text: 'after\n' });
    expect(dirAfter?.offset).toBeGreaterThan(8 * GiB);
    expect(rawLast).toMatchObject({ name: 'raw/last.txt', text: 'last\n' });
    expect(rawLast?.offset).toBeGreaterThan(8 * GiB);
  }, 300_000);
});
