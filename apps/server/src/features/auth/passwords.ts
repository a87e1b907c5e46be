import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes); @node-rs/argon2 hashes on its own
// thread pool, so a sign-in does not stall other requests.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/**
 * A password the server makes up for a user (bulk import, 002 §5.3): 144 random bits, different for every
 * user and known to nobody. Guessing it is out of reach whatever a guess costs, so it needs none of the
 * memory-hard stretching that protects chosen passwords, and lighter argon2id parameters let an import
 * hash thousands within a request. verifyPassword reads the parameters from the hash, and the user's next
 * password (Forgot password) gets the full ones.
 */
const GENERATED_OPTIONS = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

export const generatedPasswordHash = () => hash(randomBytes(18).toString('base64url'), GENERATED_OPTIONS);

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still does the work, so timing does not reveal accounts. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('no such account');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
