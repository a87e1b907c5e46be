import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  changesSignInEmail,
  passwordChangeSchema,
  profileSchema,
  signInFormSchema,
  THROTTLE,
  throttleDelaySeconds,
} from './account.js';
import { MESSAGES } from './messages.js';

describe('sign-in throttle (issue #2)', () => {
  it('is free for the first attempts, then doubles, capped', () => {
    expect(throttleDelaySeconds(4, 5)).toBe(0);
    expect(throttleDelaySeconds(5, 5)).toBe(THROTTLE.baseDelaySeconds);
    expect(throttleDelaySeconds(6, 5)).toBe(THROTTLE.baseDelaySeconds * 2);
    expect(throttleDelaySeconds(1000, 5)).toBe(THROTTLE.maxDelaySeconds);
  });

  it('never shrinks as failures grow and never exceeds the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 50 }), (failures, free) => {
        const now = throttleDelaySeconds(failures, free);
        expect(throttleDelaySeconds(failures + 1, free)).toBeGreaterThanOrEqual(now);
        expect(now).toBeLessThanOrEqual(THROTTLE.maxDelaySeconds);
      }),
    );
  });
});

describe('profile and password forms (002 §5.1 limits)', () => {
  it('names each failing field with the generic messages', () => {
    const result = profileSchema('a@b.co').safeParse({ firstName: ' ', surname: 'S', email: 'x', contactNumber: '' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({
      firstName: 'First name is required',
      email: 'Email must be a valid email',
      contactNumber: 'Contact number is required',
    });
  });

  it('trims names and accepts the maxima', () => {
    const ok = profileSchema('a@b.co').parse({
      firstName: ' Ana ',
      surname: 'x'.repeat(50),
      email: 'a@b.co',
      contactNumber: '1',
    });
    expect(ok.firstName).toBe('Ana');
  });

  it('wants the current password only when the sign-in e-mail changes, whatever the case', () => {
    const schema = profileSchema('Ana@Contoso.test');
    const form = { firstName: 'Ana', surname: 'Silva', contactNumber: '1' };
    expect(schema.parse({ ...form, email: 'ana@contoso.test' }).currentPassword).toBe('');
    expect(schema.safeParse({ ...form, email: 'ana@fabrikam.test' }).error?.issues).toEqual([
      expect.objectContaining({ path: ['currentPassword'], message: 'Current password is required' }),
    ]);
    expect(schema.parse({ ...form, email: 'ana@fabrikam.test', currentPassword: 'secret' })).toMatchObject({
      email: 'ana@fabrikam.test',
      currentPassword: 'secret',
    });
    expect(changesSignInEmail('a@b.co', ' A@B.CO ')).toBe(false);
    fc.assert(
      fc.property(fc.emailAddress(), fc.emailAddress(), (current, next) => {
        const needed = schema
          .safeParse({ ...form, email: next })
          .error?.issues.some((i) => i.path[0] === 'currentPassword');
        expect(Boolean(needed)).toBe(changesSignInEmail('Ana@Contoso.test', next) && z.email().safeParse(next).success);
        expect(profileSchema(current).safeParse({ ...form, email: current }).success).toBe(
          z.email().safeParse(current).success && current.length <= 100,
        );
      }),
    );
  });

  it('wants the confirmation to match, on the confirmation field', () => {
    const result = passwordChangeSchema.safeParse({
      currentPassword: 'a',
      password: 'long enough',
      confirmPassword: 'different',
    });
    expect(result.error?.issues[0]).toMatchObject({ path: ['confirmPassword'], message: MESSAGES.passwordsDoNotMatch });
    expect(
      passwordChangeSchema.safeParse({ currentPassword: 'a', password: 'short', confirmPassword: 'short' }).success,
    ).toBe(false);
  });
});

describe('sign-in form', () => {
  it('refuses a username with a control character, as any invalid form', () => {
    expect(signInFormSchema.safeParse({ username: 'a\u0000@b.co', password: 'x' }).success).toBe(false);
    expect(signInFormSchema.parse({ username: ' a@b.co ', password: 'x' }).username).toBe('a@b.co');
  });
});
