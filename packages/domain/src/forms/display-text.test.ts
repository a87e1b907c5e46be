import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZodObject, ZodPipe, type z } from 'zod';
import { profileSchema } from '../account.js';
import { apiTokenCreateSchema } from '../api-tokens.js';
import { fieldInvisibleCharacters, fieldRequired } from '../messages.js';
import { packageInitializeSchema } from '../packages.js';
import { hasFormatCharacter } from '../text.js';
import { billingServerSchema } from './billing-server.js';
import { customerAccountEditSchema } from './customer.js';
import { displayText, optionalDisplayText, optionalText, requiredText } from './fields.js';
import { machineEditSchema } from './machine.js';
import { packageEditSchema } from './package.js';
import { packageTemplateAddSchema, packageTemplateEditSchema } from './package-template.js';
import { resellerAccountSettingsSchema } from './reseller-settings.js';
import { signUpSchema } from './signup.js';
import { storageAccountSchema } from './storage.js';
import { taskFormSchemaFor } from './task.js';
import { userAddSchema, userEditSchema } from './user.js';

/** A form's field schema; a form that transforms its payload is a pipe whose input is the object. */
function fieldOf(schema: z.ZodType, field: string): z.ZodType {
  if (schema instanceof ZodPipe) return fieldOf(schema.in as z.ZodType, field);
  if (!(schema instanceof ZodObject)) throw new Error(`not a form: ${field}`);
  const fieldSchema = (schema.shape as Record<string, z.ZodType | undefined>)[field];
  if (fieldSchema === undefined) throw new Error(`no field ${field}`);
  return fieldSchema;
}

/** Every field people read as a name or label, by form: each must refuse invisible and direction-changing text. */
const DISPLAY_TEXT_FIELDS: Array<{ form: string; label: string; optional?: true; schema: z.ZodType }> = [
  ...(['firstName', 'surname', 'contactNumber'] as const).flatMap((field) => [
    { form: 'add user', label: field, schema: fieldOf(userAddSchema, field) },
    { form: 'edit user', label: field, schema: fieldOf(userEditSchema, field) },
    { form: 'profile', label: field, schema: fieldOf(profileSchema('a@example.com'), field) },
    { form: 'sign-up', label: field, schema: fieldOf(signUpSchema([1]), field) },
  ]),
  { form: 'customer', label: 'companyName', optional: true, schema: fieldOf(customerAccountEditSchema, 'companyName') },
  { form: 'sign-up', label: 'companyName', optional: true, schema: fieldOf(signUpSchema([1]), 'companyName') },
  { form: 'package', label: 'name', schema: fieldOf(packageEditSchema(1024), 'name') },
  { form: 'package naming', label: 'name', schema: fieldOf(packageInitializeSchema, 'name') },
  { form: 'add package template', label: 'name', schema: fieldOf(packageTemplateAddSchema, 'name') },
  { form: 'edit package template', label: 'name', schema: fieldOf(packageTemplateEditSchema, 'name') },
  { form: 'machine', label: 'name', schema: fieldOf(machineEditSchema, 'name') },
  { form: 'machine', label: 'description', schema: fieldOf(machineEditSchema, 'description') },
  { form: 'task', label: 'name', schema: fieldOf(taskFormSchemaFor('UNIX'), 'name') },
  { form: 'storage account', label: 'name', schema: fieldOf(storageAccountSchema(false), 'name') },
  { form: 'billing server', label: 'description', schema: fieldOf(billingServerSchema(false), 'description') },
  { form: 'billing server', label: 'region', schema: fieldOf(billingServerSchema(true), 'region') },
  ...(['brandName', 'supportPhoneNumber'] as const).flatMap((field) => [
    {
      form: 'reseller account (provider)',
      label: field,
      schema: fieldOf(resellerAccountSettingsSchema('ROLE_BOLT_ADMIN_USER'), field),
    },
    {
      form: 'reseller account (own)',
      label: field,
      schema: fieldOf(resellerAccountSettingsSchema('ROLE_CUSTOMER_SUPER_ADMIN_USER'), field),
    },
  ]),
  { form: 'API token', label: 'name', schema: fieldOf(apiTokenCreateSchema, 'name') },
];

/** The format characters the issue names (Unicode Cf), and the rest of the category's common ones. */
const NAMED_FORMAT_CHARACTERS = [
  ...[0x200b, 0x200c, 0x200d, 0x200e, 0x200f],
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
  ...[0x2066, 0x2067, 0x2068, 0x2069],
  0xfeff,
  0x00ad,
  ...[0x2060, 0x2061, 0x2062, 0x2063, 0x2064],
  0x061c,
  0xe0001,
].map((code) => String.fromCodePoint(code));

/** Every code point of category Cf, found by scanning, so the property also reaches the rare ones. */
const ALL_FORMAT_CHARACTERS = Array.from({ length: 0x110000 }, (_, code) => code)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))
  .filter(hasFormatCharacter);

const formatCharacter = fc.oneof(
  fc.constantFrom(...NAMED_FORMAT_CHARACTERS),
  fc.constantFrom(...ALL_FORMAT_CHARACTERS),
);
const textWithout = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((v) => !hasFormatCharacter(v));

describe('display texts refuse invisible and direction-changing characters (Unicode Cf)', () => {
  it('knows the characters the issue names as format characters', () => {
    for (const c of NAMED_FORMAT_CHARACTERS) expect(hasFormatCharacter(`a${c}b`)).toBe(true);
    expect(ALL_FORMAT_CHARACTERS.length).toBeGreaterThan(150);
    for (const c of ['a', ' ', 'é', '名', '😀', '\u00a0']) expect(hasFormatCharacter(c)).toBe(false);
  });

  it("names the field: 'First name cannot contain invisible or direction-changing characters'", () => {
    const parsed = displayText('First name', 50).safeParse('Ann\u202eA');
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'First name cannot contain invisible or direction-changing characters',
    ]);
    expect(fieldInvisibleCharacters('Company name')).toBe(
      'Company name cannot contain invisible or direction-changing characters',
    );
  });

  it('refuses a value of nothing but a zero-width space instead of taking it as present', () => {
    expect(displayText('Surname', 50).safeParse('\u200b').error?.issues[0]?.message).toBe(
      fieldInvisibleCharacters('Surname'),
    );
    expect(optionalDisplayText('Company name', 50).safeParse('\u200b\u200b').success).toBe(false);
  });

  it('keeps a value blank after trimming whitespace "required", as before', () => {
    // JavaScript's trim takes U+FEFF as whitespace: it is blank, so missing.
    for (const blank of ['', '   ', '\ufeff', ' \ufeff ']) {
      expect(displayText('Surname', 50).safeParse(blank).error?.issues[0]?.message).toBe(fieldRequired('Surname'));
      expect(optionalDisplayText('Company name', 50).safeParse(blank)).toEqual({ success: true, data: '' });
    }
  });

  it('refuses any string with a format character in every display-text field', () => {
    for (const { form, label, schema } of DISPLAY_TEXT_FIELDS) {
      fc.assert(
        fc.property(textWithout, formatCharacter, textWithout, (before, c, after) => {
          // Between letters, so trimming (which takes U+FEFF as whitespace) cannot remove it.
          const parsed = schema.safeParse(`N${before}${c}${after}e`);
          expect(parsed.success, `${form}: ${label}`).toBe(false);
          expect(parsed.error?.issues.map((issue) => issue.message).join(' ')).toMatch(
            /cannot contain invisible or direction-changing characters| must be at most /,
          );
        }),
        { numRuns: 60 },
      );
    }
  });

  it('treats strings without format characters exactly as before', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }).filter((v) => !hasFormatCharacter(v)),
        (value) => {
          expect(displayText('Name', 50, 2).safeParse(value)).toEqual(requiredText('Name', 50, 2).safeParse(value));
          expect(optionalDisplayText('Name', 50).safeParse(value)).toEqual(optionalText('Name', 50).safeParse(value));
        },
      ),
    );
    for (const { form, label, schema } of DISPLAY_TEXT_FIELDS) {
      expect(schema.safeParse('Ann-Marie O’Neil 2').success, `${form}: ${label}`).toBe(true);
    }
  });
});
