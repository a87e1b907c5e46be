import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasControlCharacter } from '../text.js';
import {
  acceptAttribute,
  checkbox,
  chosenId,
  fileExtension,
  fileIsOfKind,
  integerField,
  isBlankNumber,
  isHostname,
  issueFieldName,
  isUploadedFile,
  isWebUrl,
  messagesByField,
  optionalId,
  optionalText,
  optionalUploadField,
  requiredEmail,
  requiredText,
  singleFile,
  toNumber,
  uploadField,
} from './fields.js';

const kind = { mimeTypes: ['image/png'], extensions: ['.png'] } as const;

describe('form field helpers', () => {
  it('reads number inputs from numbers and numeric strings only', () => {
    expect(toNumber(5)).toBe(5);
    expect(toNumber(' 12 ')).toBe(12);
    expect(toNumber('1.5')).toBe(1.5);
    expect(toNumber('0x10')).toBeNaN();
    expect(toNumber('1e3')).toBeNaN();
    expect(toNumber('')).toBeNaN();
    expect(toNumber(null)).toBeNaN();
    expect(isBlankNumber(' ')).toBe(true);
    expect(isBlankNumber(undefined)).toBe(true);
    expect(isBlankNumber(0)).toBe(false);
    expect(isBlankNumber(Number.NaN)).toBe(true);
    fc.assert(
      fc.property(fc.integer(), (n) => {
        expect(toNumber(String(n))).toBe(n);
      }),
    );
  });

  it('checks whole numbers with the label in every message, or one range message', () => {
    const field = integerField('Port', { min: 1, max: 10 });
    const message = (v: unknown) => field.safeParse(v).error?.issues[0]?.message;
    expect(message('')).toBe('Port is required');
    expect(message('abc')).toBe('Port is not valid');
    expect(message('1.5')).toBe('Port must be a whole number');
    expect(message(0)).toBe('Port must be at least 1');
    expect(message(11)).toBe('Port must be at most 10');
    expect(field.parse('7')).toBe(7);
    const ranged = integerField('X', { min: 1, max: 2 }, { range: 'Must be between 1 and 2.' });
    expect(ranged.safeParse(3).error?.issues[0]?.message).toBe('Must be between 1 and 2.');
  });

  it('001 §9: a chosen id is a positive whole number; -1 and 0 mean nothing chosen', () => {
    const field = chosenId('Must choose');
    for (const v of [-1, 0, '', null, undefined, 1.5, '-1']) {
      expect(field.safeParse(v).error?.issues[0]?.message).toBe('Must choose');
    }
    expect(field.parse('3')).toBe(3);
    expect(optionalId('Task').parse('')).toBeNull();
    expect(optionalId('Task').parse(4)).toBe(4);
    expect(optionalId('Task').safeParse(-4).error?.issues[0]?.message).toBe('Task is not valid');
  });

  it('reads checkboxes from booleans and multipart strings', () => {
    expect(checkbox.parse('true')).toBe(true);
    expect(checkbox.parse('false')).toBe(false);
    expect(checkbox.parse(true)).toBe(true);
    expect(checkbox.safeParse('yes').success).toBe(false);
  });

  it('trims texts and checks their lengths', () => {
    expect(requiredText('Name', 3).parse(' ab ')).toBe('ab');
    expect(requiredText('Name', 5, 2).safeParse('a').error?.issues[0]?.message).toBe(
      'Name must be at least 2 characters',
    );
    expect(optionalText('Company', 3).parse(null)).toBe('');
    expect(optionalText('Company', 3).safeParse('abcd').error?.issues[0]?.message).toBe(
      'Company must be at most 3 characters',
    );
  });

  it('refuses control characters in texts as not valid, on the field, and keeps every other character', () => {
    const control = fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
      .map((code) => String.fromCharCode(code));
    const plain = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((v) => !hasControlCharacter(v));
    const required = requiredText('Name', 50);
    const optional = optionalText('Company', 50);
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), control, fc.string({ maxLength: 10 }), (before, c, after) => {
        const text = `${before}x${c}x${after}`;
        expect(required.safeParse(text).error?.issues[0]?.message).toBe('Name is not valid');
        expect(optional.safeParse(text).error?.issues[0]?.message).toBe('Company is not valid');
        expect(requiredEmail('Email', 100).safeParse(`a${c}b@example.com`).error?.issues[0]?.message).toBe(
          'Email must be a valid email',
        );
      }),
    );
    fc.assert(
      fc.property(plain, (text) => {
        fc.pre(text.trim() !== '');
        expect(required.parse(text)).toBe(text.trim());
        expect(optional.parse(text)).toBe(text.trim());
      }),
    );
    // Surrounding whitespace is trimmed before the check, as it always was.
    expect(required.parse('\tAna\n')).toBe('Ana');
  });

  it('accepts http(s) links and host names only', () => {
    expect(isWebUrl('https://example.com/pricing')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('not a url')).toBe(false);
    expect(isWebUrl('file:///etc/passwd')).toBe(false);
    expect(isHostname('backup.example.com')).toBe(true);
    expect(isHostname('localhost')).toBe(false);
    expect(isHostname('-bad.example.com')).toBe(false);
  });

  it('checks files by MIME type and extension, and takes the first file of a list', () => {
    expect(fileExtension('logo.PNG')).toBe('.png');
    expect(fileExtension('.hidden')).toBe('');
    expect(fileExtension('none')).toBe('');
    expect(isUploadedFile({ name: 'a', type: 'b' })).toBe(true);
    expect(isUploadedFile('a')).toBe(false);
    expect(fileIsOfKind({ name: 'a.png', type: 'image/png' }, kind)).toBe(true);
    expect(fileIsOfKind({ name: 'a.png', type: 'image/gif' }, kind)).toBe(false);
    expect(fileIsOfKind({ name: 'a.gif', type: 'image/png' }, kind)).toBe(false);
    expect(acceptAttribute(kind)).toBe('.png,image/png');
    const file = { name: 'a.png', type: 'image/png' };
    expect(singleFile([file])).toBe(file);
    expect(singleFile([])).toBeNull();
    expect(singleFile('')).toBeNull();
    expect(uploadField('Logo', kind, 'wrong').parse([file])).toBe(file);
    expect(uploadField('Logo', kind, 'wrong').safeParse(undefined).error?.issues[0]?.message).toBe('Logo is required');
    expect(optionalUploadField('Logo', kind, 'wrong').parse(null)).toBeNull();
  });

  it('names issues as the server does: the path joined with dots, first message per field', () => {
    expect(issueFieldName(['exclusions', 2])).toBe('exclusions.2');
    const schema = z.object({ a: z.string().min(2, 'short').max(1, 'long'), b: z.array(z.string().min(1, 'empty')) });
    const result = schema.safeParse({ a: 'x', b: ['', 'y'] });
    expect(messagesByField(result.error?.issues ?? [])).toEqual({ a: 'short', 'b.0': 'empty' });
  });
});
