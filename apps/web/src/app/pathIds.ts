/**
 * A path segment read as a record's id: a positive safe integer, else null, so that a malformed link shows the
 * not-found page instead of asking the server.
 */
export function pathId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
