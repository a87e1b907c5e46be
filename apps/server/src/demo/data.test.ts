import { brandContrastWarnings } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { RESELLERS } from './data.js';

describe("the demo resellers' colours (issue 31)", () => {
  it.each(
    RESELLERS.map((reseller) => [reseller.key, reseller] as const),
  )("%s: every colour's text passes WCAG AA, so the look-and-feel form warns of none", (_key, reseller) => {
    expect(brandContrastWarnings(reseller)).toEqual({});
  });
});
