/**
 * One CSV line (RFC 4180): a cell with a comma, quote or line break is quoted, its quotes doubled; lines end
 * with CRLF. A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return
 * that hides one) gets a leading apostrophe, so an e-mail or name someone typed cannot run in the reader's sheet.
 */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
