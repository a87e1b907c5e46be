import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/**
 * The demo reseller's logo and favicon, drawn at seed time as small PNG files: a band of the brand's header
 * colour with a lighter mark. Named as the look-and-feel upload names stored images (kind, content hash, .png),
 * so the images are served like uploaded ones once they are stored with them.
 */
export interface DemoBrandImage {
  fileName: string;
  png: Buffer;
}

type Rgb = readonly [number, number, number];

const rgb = (hex: string): Rgb => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 255] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of `width` x `height` whose pixel colours `paint` gives. */
function png(width: number, height: number, paint: (x: number, y: number) => Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const start = y * (1 + width * 3);
    for (let x = 0; x < width; x++) rows.set(paint(x, y), start + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const named = (kind: 'logo' | 'favicon', bytes: Buffer): DemoBrandImage => ({
  fileName: `${kind}-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.png`,
  png: bytes,
});

/** A 240 x 60 logo and a 32 x 32 favicon in the brand's colours. */
export function demoBrandImages(colours: { header: string; accent: string }): {
  logo: DemoBrandImage;
  favicon: DemoBrandImage;
} {
  const base = rgb(colours.header);
  const accent = rgb(colours.accent);
  const logo = png(240, 60, (x, y) => {
    const inMark = x >= 12 && x < 48 && y >= 12 && y < 48;
    const inBar = x >= 60 && x < 228 && y >= 24 && y < 36;
    return inMark || inBar ? accent : base;
  });
  const favicon = png(32, 32, (x, y) => (x >= 8 && x < 24 && y >= 8 && y < 24 ? accent : base));
  return { logo: named('logo', logo), favicon: named('favicon', favicon) };
}
