import { createHash } from 'node:crypto';
import {
  IMAGE_SUGGESTED_SIZES,
  IMAGE_TYPE_MESSAGES,
  IMAGE_UPLOAD_LIMITS,
  RESELLER_IMAGE_FILE_NAME,
  type ResellerImageKind,
} from '@portal/domain';
import sharp from 'sharp';

/** An upload that is not an image of the accepted kinds; its message belongs on the image's field. */
export class ImageRejected extends Error {
  constructor(readonly kind: ResellerImageKind) {
    super(IMAGE_TYPE_MESSAGES[kind]);
  }
}

/** A logo or favicon as the server stores and serves it. */
export interface PreparedImage {
  fileName: string;
  png: Buffer;
}

type Format = 'png' | 'jpeg' | 'ico';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the first bytes announce (000 §5: logo jpeg or png; favicon jpeg, png or icon), else null. */
export function sniffFormat(bytes: Buffer): Format | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  // ICONDIR: reserved 0, type 1 (icon), at least one entry.
  if (bytes.length >= 6 && bytes.readUInt16LE(0) === 0 && bytes.readUInt16LE(2) === 1 && bytes.readUInt16LE(4) > 0)
    return 'ico';
  return null;
}

const ACCEPTED: Record<ResellerImageKind, readonly Format[]> = {
  logo: ['png', 'jpeg'],
  favicon: ['png', 'jpeg', 'ico'],
};

const sharpOptions = { limitInputPixels: IMAGE_UPLOAD_LIMITS.maxPixels, failOn: 'error' } as const;

/**
 * Checks an upload by its content, never its name or MIME type: the magic bytes must be of an accepted format
 * and the whole file must decode as that format (a PNG signature in front of anything else is refused). Then
 * resizes it (a logo to fit 560 x 120 keeping its aspect ratio, never enlarged; a favicon to 32 x 32 on a
 * transparent square) and stores it as PNG without metadata (sharp drops EXIF and the like unless asked to
 * keep them), named by kind and content hash.
 */
export async function prepareImage(kind: ResellerImageKind, bytes: Buffer): Promise<PreparedImage> {
  const format = sniffFormat(bytes);
  if (format === null || !ACCEPTED[kind].includes(format)) throw new ImageRejected(kind);
  const source = format === 'ico' ? icoLargestEntry(bytes, kind) : await decodable(bytes, format, kind);
  const size = IMAGE_SUGGESTED_SIZES[kind];
  let png: Buffer;
  try {
    const image =
      'raw' in source ? sharp(source.raw.data, { raw: source.raw.info }) : sharp(source.bytes, sharpOptions);
    png = await image
      // Applies a JPEG's EXIF orientation before the metadata goes.
      .rotate()
      .resize(
        kind === 'logo'
          ? { width: size.width, height: size.height, fit: 'inside', withoutEnlargement: true }
          : { width: size.width, height: size.height, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } },
      )
      .png()
      .toBuffer();
  } catch {
    throw new ImageRejected(kind);
  }
  const hash = createHash('sha256').update(png).digest('hex').slice(0, 32);
  const fileName = `${kind}-${hash}.png`;
  if (!RESELLER_IMAGE_FILE_NAME.test(fileName)) throw new Error('image file name pattern broken');
  return { fileName, png };
}

type Source = { bytes: Buffer } | { raw: { data: Buffer; info: { width: number; height: number; channels: 4 } } };

/** The file decodes, as the format its magic bytes announced. */
async function decodable(bytes: Buffer, format: 'png' | 'jpeg', kind: ResellerImageKind): Promise<Source> {
  try {
    const metadata = await sharp(bytes, sharpOptions).metadata();
    if (metadata.format !== format) throw new ImageRejected(kind);
    // Decoding every pixel catches a file whose header is right and whose data is not.
    await sharp(bytes, sharpOptions).raw().toBuffer();
  } catch {
    throw new ImageRejected(kind);
  }
  return { bytes };
}

/**
 * The largest picture of an .ico file: its entries are PNG files or BMP bitmaps without the file header
 * (a BITMAPINFOHEADER, the pixels bottom-up, then a 1-bit transparency mask). 32-bit and 24-bit bitmaps are
 * read here; a PNG entry goes to sharp like any PNG; anything else is refused.
 */
function icoLargestEntry(bytes: Buffer, kind: ResellerImageKind): Source {
  const count = bytes.readUInt16LE(4);
  if (bytes.length < 6 + count * 16) throw new ImageRejected(kind);
  let best: { offset: number; length: number; area: number } | null = null;
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    const width = bytes[entry] || 256;
    const height = bytes[entry + 1] || 256;
    const length = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    if (offset + length > bytes.length || length < 40) throw new ImageRejected(kind);
    if (!best || width * height > best.area) best = { offset, length, area: width * height };
  }
  if (!best) throw new ImageRejected(kind);
  const data = bytes.subarray(best.offset, best.offset + best.length);
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return { bytes: Buffer.from(data) };
  return { raw: readIcoBitmap(data, kind) };
}

function readIcoBitmap(dib: Buffer, kind: ResellerImageKind) {
  const headerSize = dib.readUInt32LE(0);
  const width = dib.readInt32LE(4);
  // The height counts the pixels and the mask: twice the picture's.
  const height = dib.readInt32LE(8) / 2;
  const bitCount = dib.readUInt16LE(14);
  const compression = dib.readUInt32LE(16);
  if (headerSize < 40 || compression !== 0 || (bitCount !== 32 && bitCount !== 24)) throw new ImageRejected(kind);
  if (width <= 0 || width > 256 || height <= 0 || height > 256 || !Number.isInteger(height))
    throw new ImageRejected(kind);
  const rowBytes = Math.ceil((width * bitCount) / 32) * 4;
  const maskRowBytes = Math.ceil(width / 32) * 4;
  const pixelsAt = headerSize;
  const maskAt = pixelsAt + rowBytes * height;
  const hasMask = dib.length >= maskAt + maskRowBytes * height;
  if (dib.length < maskAt) throw new ImageRejected(kind);
  // Old 32-bit icons leave the alpha bytes all 0 and keep their transparency in the mask only.
  const alphaUnused =
    bitCount === 32 &&
    Array.from({ length: width * height }, (_, i) => dib[pixelsAt + i * 4 + 3]).every((a) => a === 0);
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = pixelsAt + (height - 1 - y) * rowBytes;
    const maskRow = maskAt + (height - 1 - y) * maskRowBytes;
    for (let x = 0; x < width; x++) {
      const p = row + x * (bitCount / 8);
      const o = (y * width + x) * 4;
      out[o] = dib[p + 2] as number;
      out[o + 1] = dib[p + 1] as number;
      out[o + 2] = dib[p] as number;
      const masked = hasMask && (((dib[maskRow + (x >> 3)] as number) >> (7 - (x & 7))) & 1) === 1;
      out[o + 3] = bitCount === 32 && !alphaUnused ? (dib[p + 3] as number) : masked ? 0 : 255;
    }
  }
  return { data: out, info: { width, height, channels: 4 as const } };
}
