import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  contrastText,
  nearestPassingColour,
  normalHex,
  relativeLuminance,
  WCAG_AA_TEXT_CONTRAST,
} from './contrast.js';

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('WCAG contrast (issue 31)', () => {
  it("measures WCAG's known ratios", () => {
    expect(contrastRatio('#000', '#fff')).toBe(21);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(WCAG_AA_TEXT_CONTRAST);
    expect(contrastText(4.499)).toBe('4.49:1');
    expect(normalHex('#ABC')).toBe('#aabbcc');
    expect(() => contrastRatio('blue', '#fff')).toThrow(RangeError);
  });

  it('suggests the nearest passing colour: the old demo brand blue under white text becomes a darker blue', () => {
    expect(contrastRatio('#2a7de1', '#ffffff')).toBeLessThan(WCAG_AA_TEXT_CONTRAST);
    const suggestion = nearestPassingColour('#2a7de1', '#ffffff');
    expect(suggestion).toBe('#1f75dd');
    expect(contrastRatio(suggestion, '#ffffff')).toBeGreaterThanOrEqual(WCAG_AA_TEXT_CONTRAST);
    // A light tint under Bootstrap's link colour has to go all the way to white.
    expect(nearestPassingColour('#f3f6fa', '#0d6efd')).toBe('#ffffff');
  });

  it('property: the ratio is symmetric and between 1 and 21', () => {
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const ratio = contrastRatio(a, b);
        expect(ratio).toBe(contrastRatio(b, a));
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21);
      }),
    );
  });

  it('property: the suggestion always passes, and a passing colour is kept as it is', () => {
    fc.assert(
      fc.property(hex, hex, (colour, against) => {
        const suggestion = nearestPassingColour(colour, against);
        expect(contrastRatio(suggestion, against)).toBeGreaterThanOrEqual(WCAG_AA_TEXT_CONTRAST);
        if (contrastRatio(colour, against) >= WCAG_AA_TEXT_CONTRAST) expect(suggestion).toBe(colour);
      }),
      { numRuns: 300 },
    );
  });

  it('property: the suggestion is no farther in lightness than black or white, whichever passes', () => {
    fc.assert(
      fc.property(hex, hex, (colour, against) => {
        const suggestion = nearestPassingColour(colour, against);
        const moved = Math.abs(relativeLuminance(suggestion) - relativeLuminance(colour));
        const ends = ['#000000', '#ffffff'].filter((end) => contrastRatio(end, against) >= WCAG_AA_TEXT_CONTRAST);
        const farthest = Math.max(...ends.map((end) => Math.abs(relativeLuminance(end) - relativeLuminance(colour))));
        expect(moved).toBeLessThanOrEqual(farthest + 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});
