import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { TestClient } from '../../testing/client.js';

/** A file part of a multipart body. */
export interface FilePart {
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser sends it: text fields, then files. */
export function multipartBody(fields: Record<string, string>, files: Record<string, FilePart> = {}) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** PUT of a settings section as multipart, the way the web app sends it. */
export function putSection(
  client: TestClient,
  url: string,
  fields: Record<string, string>,
  files: Record<string, FilePart> = {},
) {
  const body = multipartBody(fields, files);
  return client.request({
    method: 'PUT',
    url,
    headers: { accept: 'application/json', 'x-csrf-token': client.csrf, 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** A picture of the given size in a colour, with some detail so it is not one flat block. */
export function testPicture(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 1 } },
  }).composite([
    {
      input: {
        create: { width: Math.ceil(width / 2), height: Math.ceil(height / 2), channels: 4, background: '#1e90ff' },
      },
      left: 0,
      top: 0,
    },
  ]);
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/**
 * An .ico file with two entries: a 16x16 24-bit bitmap (BITMAPINFOHEADER, pixels bottom-up, AND mask) and a
 * 48x48 PNG; the larger one is the picture a browser shows.
 */
export async function testIcon(): Promise<Buffer> {
  const size = 16;
  const rowBytes = Math.ceil((size * 24) / 32) * 4;
  const maskRowBytes = Math.ceil(size / 32) * 4;
  const dib = Buffer.alloc(40 + rowBytes * size + maskRowBytes * size);
  dib.writeUInt32LE(40, 0);
  dib.writeInt32LE(size, 4);
  dib.writeInt32LE(size * 2, 8);
  dib.writeUInt16LE(1, 12);
  dib.writeUInt16LE(24, 14);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const p = 40 + y * rowBytes + x * 3;
      dib[p] = 255; // blue
    }
  const png = await testPicture(48, 48, 'png');
  const entries = [
    { width: size, height: size, data: dib },
    { width: 48, height: 48, data: png },
  ];
  const header = Buffer.alloc(6 + entries.length * 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach((entry, i) => {
    const at = 6 + i * 16;
    header[at] = entry.width;
    header[at + 1] = entry.height;
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(entry.data.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += entry.data.length;
  });
  return Buffer.concat([header, ...entries.map((e) => e.data)]);
}

/** Files that are not accepted images whatever their name says. */
export const DISGUISED = {
  html: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>\n'),
  svg: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n',
  ),
  /** A PNG signature in front of text: the magic bytes are right, the file does not decode. */
  fakePng: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not a png')]),
};
