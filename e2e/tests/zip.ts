import { crc32, inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * The files of a downloaded zip by name, read with Node alone (no `unzip` binary on the machine): the central
 * directory gives each entry's method, sizes and local header, as writers that stream (sizes after the data)
 * leave the local header's sizes empty. Stored and deflated entries, no ZIP64; a wrong CRC throws.
 */
export function zipFiles(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(END_OF_CENTRAL_DIRECTORY);
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw new Error(`no central directory entry at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`${name}: no local header`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method !== STORED && method !== DEFLATED) throw new Error(`${name}: compression method ${method}`);
    const content = method === DEFLATED ? inflateRawSync(data) : Buffer.from(data);
    if (crc32(content) !== crc) throw new Error(`${name}: CRC does not match`);
    files.set(name, content);
  }
  return files;
}
