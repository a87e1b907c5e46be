/**
 * Colour contrast as WCAG 2 measures it (issue 31): the relative luminance of an sRGB colour, the contrast ratio
 * of two colours, and the colour nearest a given one, with its hue and saturation kept, whose contrast reaches a
 * minimum. The look-and-feel form warns with these, and the shell picks button text with them.
 */

/** WCAG 2 AA for normal text (success criterion 1.4.3). */
export const WCAG_AA_TEXT_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

/** '#rgb' or '#rrggbb' as its three channels 0..255; throws on anything else. */
export function rgbOf(hex: string): Rgb {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new RangeError(`Not a hex colour: ${hex}`);
  const digits = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as unknown as Rgb;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The colour as '#rrggbb' in lower case. */
export const normalHex = (hex: string) => hexOf(rgbOf(hex));

/** WCAG's relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21, the same either way round. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The ratio as people read it: rounded down to two decimals ('4.49:1' fails, never shown as '4.5:1'). */
export const contrastText = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

function hslOf([r, g, b]: Rgb): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return [h / 6, s, l];
}

function rgbOfHsl(h: number, s: number, l: number): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number) => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

const LIGHTNESS_STEP = 0.005;

/**
 * The colour nearest `colour` whose contrast with each of `against` is at least `minimum`: the same hue and
 * saturation, the lightness moved as little as it must be, darker first on a tie; the colour itself (as '#rrggbb')
 * when it already passes. Against one colour, black or white always reaches 4.5:1, so there is an answer; against
 * several there may be none, and the end (black or white) whose lowest contrast is higher is the answer.
 */
export function nearestPassingColour(
  colour: string,
  against: string | readonly string[],
  minimum = WCAG_AA_TEXT_CONTRAST,
): string {
  const texts = typeof against === 'string' ? [against] : against;
  const lowest = (candidate: string) => Math.min(...texts.map((text) => contrastRatio(candidate, text)));
  const start = normalHex(colour);
  if (lowest(start) >= minimum) return start;
  const [h, s, l] = hslOf(rgbOf(start));
  for (let shift = LIGHTNESS_STEP; shift <= 1; shift += LIGHTNESS_STEP) {
    // Each side stops at black or white, the last colour it can try.
    for (const lightness of [Math.max(0, l - shift), Math.min(1, l + shift)]) {
      const candidate = hexOf(rgbOfHsl(h, s, lightness));
      if (lowest(candidate) >= minimum) return candidate;
    }
  }
  return lowest('#000000') >= lowest('#ffffff') ? '#000000' : '#ffffff';
}
