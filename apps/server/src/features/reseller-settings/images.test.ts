import { IMAGE_TYPE_MESSAGES } from '@portal/domain';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageRejected, prepareImage, sniffFormat } from './images.js';
import { DISGUISED, testIcon, testPicture } from './testing.js';

/** A one-entry .ico holding a 16x16 32-bit bitmap whose alpha bytes are all 0; the mask hides the left half. */
function oldStyleIcon(): Buffer {
  const size = 16;
  const maskRowBytes = 4;
  const dib = Buffer.alloc(40 + size * size * 4 + maskRowBytes * size);
  dib.writeUInt32LE(40, 0);
  dib.writeInt32LE(size, 4);
  dib.writeInt32LE(size * 2, 8);
  dib.writeUInt16LE(1, 12);
  dib.writeUInt16LE(32, 14);
  for (let i = 0; i < size * size; i++) dib[40 + i * 4 + 1] = 200; // green, alpha 0
  const maskAt = 40 + size * size * 4;
  for (let y = 0; y < size; y++) dib[maskAt + y * maskRowBytes] = 0xff; // x 0-7 transparent
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header[6] = size;
  header[7] = size;
  header.writeUInt32LE(dib.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, dib]);
}

describe('images checked by content (000 §5, issue 17)', () => {
  it('reads the format from the magic bytes only', async () => {
    expect(sniffFormat(await testPicture(4, 4, 'png'))).toBe('png');
    expect(sniffFormat(await testPicture(4, 4, 'jpeg'))).toBe('jpeg');
    expect(sniffFormat(await testIcon())).toBe('ico');
    expect(sniffFormat(DISGUISED.html)).toBeNull();
    expect(sniffFormat(DISGUISED.svg)).toBeNull();
    expect(sniffFormat(Buffer.alloc(0))).toBeNull();
  });

  it('an icon is no logo; a file with a right signature and wrong data is refused', async () => {
    await expect(prepareImage('logo', await testIcon())).rejects.toEqual(new ImageRejected('logo'));
    await expect(prepareImage('favicon', DISGUISED.fakePng)).rejects.toThrow(IMAGE_TYPE_MESSAGES.favicon);
  });

  it('an old-style 32-bit icon keeps the transparency of its mask', async () => {
    const { png } = await prepareImage('favicon', oldStyleIcon());
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 32, height: 32, channels: 4 });
    const alphaAt = (x: number, y: number) => data[(y * 32 + x) * 4 + 3];
    expect(alphaAt(2, 16)).toBe(0);
    expect(alphaAt(28, 16)).toBe(255);
  });

  it('the same picture gets the same name; another picture another', async () => {
    const picture = await testPicture(100, 50, 'png');
    const first = await prepareImage('logo', picture);
    expect((await prepareImage('logo', picture)).fileName).toBe(first.fileName);
    expect((await prepareImage('logo', await testPicture(101, 50, 'png'))).fileName).not.toBe(first.fileName);
  });
});
