/**
 * The zip the chosen-items download writes, read back by a real reader (Python's zipfile, which checks every
 * entry's CRC and reads ZIP64 as the APPNOTE has it): plain ZIP while it fits, ZIP64 past 65,535 entries and
 * past 4 GiB. The 4 GiB cases stream real bytes through the tar reader and the writer (GNU tar of a sparse file,
 * and zeros from memory; written back sparse), so nothing of that size is kept in memory or on disk.
 */
import { execFileSync, spawn } from 'node:child_process';
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
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readTar, ZipWriter } from './zip.js';

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

describe('the repacked zip', () => {
  it('stays plain ZIP while it fits: no ZIP64 field or record', async () => {
    const file = join(tmp, 'small.zip');
    const sink = sparseSink(file);
    const zip = new ZipWriter(sink.write);
    await zip.add('docs/', modified, 0, null);
    await zip.add('docs/a.txt', modified, 6, [Buffer.from('alpha\n')]);
    await zip.add('docs/ü.txt', modified, null, [Buffer.from('un'), Buffer.from('known')]);
    await zip.finish();
    sink.close();
    const read = pythonRead(file);
    expect(read.zip64End).toBe(false);
    expect(read.entries.map(({ name, text }) => ({ name, text }))).toEqual([
      { name: 'docs/', text: '' },
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
    const file = join(tmp, 'many.zip');
    const sink = sparseSink(file);
    const zip = new ZipWriter(sink.write);
    const count = 70_000;
    for (let i = 0; i < count; i += 1) await zip.add(`f${i}.txt`, modified, null, [Buffer.from(`${i}`)]);
    await zip.finish();
    sink.close();
    const read = pythonRead(file);
    expect(read.zip64End).toBe(true);
    expect(read.entries).toHaveLength(count);
    expect(read.entries[count - 1]).toMatchObject({ name: `f${count - 1}.txt`, text: `${count - 1}` });
  }, 120_000);

  it('writes entries over 4 GiB and an archive over 4 GiB from restic-like tar and raw streams', async () => {
    // A 4 GiB + 6 byte file of zeros ending in 'tail!\n' (sparse: no disk), and a small one after it.
    const dir = mkdtempSync(join(tmp, 'big-'));
    const huge = join(dir, 'huge.bin');
    const hugeSize = 4 * GiB + 6;
    writeFileSync(huge, '');
    truncateSync(huge, 4 * GiB);
    const fd = openSync(huge, 'a');
    writeSync(fd, 'tail!\n');
    closeSync(fd);
    writeFileSync(join(dir, 'after.txt'), 'after\n');
    const hugeBytes = function* () {
      for (let i = 0; i < 4096; i += 1) yield ZEROS;
      yield Buffer.from('tail!\n');
    };
    let hugeCrc = 0;
    for (const chunk of hugeBytes()) hugeCrc = crc32(chunk, hugeCrc);

    const file = join(tmp, 'big.zip');
    const sink = sparseSink(file);
    const zip = new ZipWriter(sink.write);
    // A PAX tar as Go's archive/tar (restic) writes one: the size known from the header.
    const tar = spawn('tar', ['--format=pax', '-cf', '-', '-C', dir, 'huge.bin', 'after.txt'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const entry of readTar(tar.stdout)) {
      await zip.add(`tar/${entry.name}`, entry.modified, entry.size, entry.body);
    }
    // A chosen file is dumped as its bare bytes: its size known only at its end.
    await zip.add('raw/huge.bin', modified, null, hugeBytes());
    await zip.add('raw/last.txt', modified, null, [Buffer.from('last\n')]);
    await zip.finish();
    sink.close();

    const read = pythonRead(file);
    expect(read.zip64End).toBe(true);
    const [tarHuge, tarAfter, rawHuge, rawLast] = read.entries;
    expect(tarHuge).toMatchObject({ name: 'tar/huge.bin', size: hugeSize, offset: 0, crc: hugeCrc >>> 0 });
    expect(tarAfter).toMatchObject({ name: 'tar/after.txt', text: 'after\n' });
    expect(tarAfter?.offset).toBeGreaterThan(4 * GiB);
    expect(rawHuge).toMatchObject({ name: 'raw/huge.bin', size: hugeSize, crc: hugeCrc >>> 0 });
    expect(rawLast).toMatchObject({ name: 'raw/last.txt', text: 'last\n' });
    expect(rawLast?.offset).toBeGreaterThan(8 * GiB);
  }, 300_000);
});
