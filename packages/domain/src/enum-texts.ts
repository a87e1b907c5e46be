/**
 * An enumeration whose every value has a display text, declared as [value, text] pairs: gives the values in the
 * order written, typed as the `as const` tuple of them, and the texts by value.
 */
export function valuesWithTexts<const P extends readonly (readonly [string, string])[]>(pairs: P) {
  const values = pairs.map(([value]) => value) as unknown as { readonly [I in keyof P]: P[I][0] };
  const texts = Object.fromEntries(pairs) as Record<P[number][0], string>;
  return [values, texts] as const;
}
