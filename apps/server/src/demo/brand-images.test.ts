import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { demoBrandImages } from './brand-images.js';

/** The chunks of a PNG file, checking the signature and each chunk's CRC through zlib's own reading of IDAT. */
function chunks(png: Buffer): Map<string, Buffer> {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const found = new Map<string, Buffer>();
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    found.set(png.toString('ascii', at + 4, at + 8), png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return found;
}

describe("the demo reseller's drawn logo and favicon", () => {
  it('are PNG files of 240 x 60 and 32 x 32 in the brand colours, named by kind and content hash', () => {
    const { logo, favicon } = demoBrandImages({ header: '#1b3a5c', accent: '#2a7de1' });
    for (const [image, width, height] of [
      [logo, 240, 60],
      [favicon, 32, 32],
    ] as const) {
      const parts = chunks(image.png);
      const header = parts.get('IHDR');
      expect(header?.readUInt32BE(0)).toBe(width);
      expect(header?.readUInt32BE(4)).toBe(height);
      const pixels = inflateSync(parts.get('IDAT') ?? Buffer.alloc(0));
      expect(pixels).toHaveLength(height * (1 + width * 3));
      expect([...pixels.subarray(1, 4)]).toEqual([0x1b, 0x3a, 0x5c]);
      expect(parts.has('IEND')).toBe(true);
    }
    expect(logo.fileName).toMatch(/^logo-[0-9a-f]{32}\.png$/);
    expect(favicon.fileName).toMatch(/^favicon-[0-9a-f]{32}\.png$/);
    expect(demoBrandImages({ header: '#1b3a5c', accent: '#2a7de1' }).logo.fileName).toBe(logo.fileName);
    expect(demoBrandImages({ header: '#4a235a', accent: '#8e44ad' }).logo.fileName).not.toBe(logo.fileName);
  });
});
