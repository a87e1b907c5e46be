import { emailField, MESSAGES, newPasswordField, userDetailFields } from '@portal/domain';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { users } from '../../db/schema/index.js';
import { hashPassword } from '../auth/passwords.js';

export const createAdminSchema = z.object({
  email: emailField(),
  // The user form's name rules: required, at most 50, no control or invisible characters.
  firstName: userDetailFields.firstName,
  surname: userDetailFields.surname,
  password: newPasswordField(),
});

export type CreateAdminResult = { ok: true; userId: number } | { ok: false; errors: string[] };

/** Creates a provider admin: how an operator gets the first account of a production install. */
export async function createProviderAdmin(db: Db, input: unknown): Promise<CreateAdminResult> {
  const parsed = createAdminSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  const { email, firstName, surname, password } = parsed.data;
  try {
    const [row] = await db
      .insert(users)
      .values({
        email,
        firstName,
        surname,
        role: 'ROLE_BOLT_ADMIN_USER',
        customerId: null,
        passwordHash: await hashPassword(password),
      })
      .returning({ id: users.id });
    if (!row) return { ok: false, errors: ['the user was not created'] };
    return { ok: true, userId: row.id };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: [`email: ${MESSAGES.emailTaken}`] };
    throw error;
  }
}

/** `create-admin --email E --first-name F --surname S`, password from ADMIN_PASSWORD (kept out of shell history). */
export function createAdminInputFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    email: value('--email'),
    firstName: value('--first-name'),
    surname: value('--surname'),
    password: env.ADMIN_PASSWORD,
  };
}
