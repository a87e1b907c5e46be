/**
 * Control characters (Unicode category Cc: U+0000–U+001F and U+007F–U+009F) have no place in what a person
 * types into a one-line field, in a file name or in a pattern; a NUL byte cannot even be stored in a
 * PostgreSQL text column.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;

export const hasControlCharacter = (value: string) => CONTROL_CHARACTER.test(value);

/**
 * Format characters (Unicode category Cf: zero-width spaces and joiners U+200B–U+200D, the direction marks and
 * overrides U+200E–U+200F, U+202A–U+202E and U+2066–U+2069, the soft hyphen U+00AD, the word joiner and
 * invisible operators U+2060–U+2064, the byte-order mark U+FEFF, ...) are invisible or reorder what follows:
 * in a name they let one name look like another, or a name of nothing but them look present.
 */
const FORMAT_CHARACTER = /\p{Cf}/u;

export const hasFormatCharacter = (value: string) => FORMAT_CHARACTER.test(value);

/**
 * An unpaired UTF-16 surrogate: JSON can spell one (`"\ud800"`), UTF-8 cannot hold it, so stored it would turn
 * into U+FFFD. Not a rule of any one field: the server refuses it in any text of a request (well-formed-text.ts).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value);

/** A person's full name as every screen shows it: first name and surname (confirmations type exactly this). */
export const fullName = (person: { firstName: string; surname: string }) =>
  `${person.firstName} ${person.surname}`.trim();

/** A name as a URL- and e-mail-safe slug: accents dropped, '&' spelled out, other runs as one dash. */
export const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
