/** Test-only: how a form shows a schema's parse result. */
import { messagesByField } from '../forms/fields.js';

/** The first message per field of a parse result, as the server sends them; empty when it passed. */
export const errorsOf = (result: { error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }) =>
  messagesByField(result.error?.issues ?? []);
