import { errorMessage, type ServerMessage, secretFieldMessage, secretSource } from '@portal/domain';
import { AppError } from '../http/errors.js';

/** One secret field of a form that may be left empty to mean the stored secret. */
export interface SecretField<S> {
  label: string;
  /** What the form carries ('' or absent: nothing). */
  given: string | null | undefined;
  /** The stored secret (sealed), null when none is stored. */
  stored: S | null;
  required: boolean;
}

/**
 * The secrets a form's test or save sends or stores, by field: the form's own (sealed), or the stored one only
 * when `sameAsStored` says the form still goes where it was saved for (DESIGN §8a, the rule in the domain's
 * credentials.ts). Every field that must be entered again, or is required and missing, is refused with one 400
 * naming them all, before anything is sent anywhere.
 */
export function secretsFor<K extends string, S>(
  sameAsStored: boolean,
  fields: Record<K, SecretField<S>>,
  seal: (plain: string) => S,
): Record<K, S | null> {
  const chosen = {} as Record<K, S | null>;
  const refused: ServerMessage[] = [];
  for (const fieldName of Object.keys(fields) as K[]) {
    const field = fields[fieldName];
    const source = secretSource(field.given, field.stored !== null, sameAsStored);
    const message = secretFieldMessage(source, field.label, field.required);
    if (message !== null) refused.push(errorMessage(message, fieldName, 'VALIDATION_FAILED'));
    chosen[fieldName] =
      source === 'given' && field.given ? seal(field.given) : source === 'stored' ? field.stored : null;
  }
  if (refused.length > 0) throw new AppError(400, 'VALIDATION_FAILED', refused);
  return chosen;
}
