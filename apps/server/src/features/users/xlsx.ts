import { inflateRawSync } from 'node:zlib';
import {
  importTooManyRows,
  importWrongHeader,
  MESSAGES,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_HEADERS,
  USER_IMPORT_LIMITS,
  USER_IMPORT_SHEETS,
  type UserImportCells,
} from '@portal/domain';
import ExcelJS from 'exceljs';

/** An import file refused as a whole; the message goes on the form's file field. */
export class ImportFileError extends Error {}

const unreadable = () => new ImportFileError(MESSAGES.userImport.fileUnreadable);

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** The zip's end-of-central-directory record, searched backwards over a possible comment. */
function findEndOfCentralDirectory(zip: Buffer): number {
  const last = zip.length - EOCD_SIZE;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw unreadable();
}

/**
 * Guards against a zip bomb before the spreadsheet library unpacks anything (an .xlsx is a zip): reads
 * the central directory itself and inflates every entry with a cap on its output, so the real unpacked
 * total stays within USER_IMPORT_LIMITS.maxUnpackedBytes whatever the archive declares, and refuses
 * many entries, encrypted entries, ZIP64 and compression methods an .xlsx does not use.
 */
export function checkZipArchive(zip: Buffer, limits = USER_IMPORT_LIMITS): void {
  if (zip.length < EOCD_SIZE || zip.readUInt32LE(0) !== LOCAL_SIGNATURE) throw unreadable();
  const eocd = findEndOfCentralDirectory(zip);
  const entries = zip.readUInt16LE(eocd + 10);
  const directorySize = zip.readUInt32LE(eocd + 12);
  const directoryOffset = zip.readUInt32LE(eocd + 16);
  if (entries === 0 || entries === 0xffff || directoryOffset === 0xffffffff) throw unreadable();
  if (entries > limits.maxZipEntries || directoryOffset + directorySize > eocd) throw unreadable();

  let budget = limits.maxUnpackedBytes;
  let at = directoryOffset;
  for (let index = 0; index < entries; index++) {
    if (at + 46 > eocd || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw unreadable();
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);

    if (flags & 0x1) throw unreadable();
    if (local + 30 > directoryOffset || zip.readUInt32LE(local) !== LOCAL_SIGNATURE) throw unreadable();
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressedSize > directoryOffset) throw unreadable();
    const data = zip.subarray(start, start + compressedSize);

    let unpacked: number;
    if (method === 0) unpacked = data.length;
    else if (method === 8) {
      if (budget <= 0) throw unreadable();
      try {
        // maxOutputLength makes zlib stop (and throw) as soon as the entry would pass what is left.
        unpacked = inflateRawSync(data, { maxOutputLength: budget }).length;
      } catch {
        throw unreadable();
      }
    } else throw unreadable();
    budget -= unpacked;
    if (budget < 0) throw unreadable();
  }
}

/** A cell's text as the user sees it: numbers, hyperlinks (e-mail addresses), rich text and formula results. */
function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text.trim();
  } catch {
    return '';
  }
}

/**
 * Reads the users of an import file (002 §5.3): a real .xlsx (zip-bomb guarded), whose first sheet's
 * first row is the example's header row, with at most USER_IMPORT_LIMITS.maxRows users. Empty rows are
 * left out; row numbers are the spreadsheet's.
 */
export async function readUserImportFile(
  file: Buffer,
  limits = USER_IMPORT_LIMITS,
): Promise<Array<{ rowNumber: number; cells: UserImportCells }>> {
  checkZipArchive(file, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw unreadable();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw unreadable();

  const header = sheet.getRow(1);
  const headings = Array.from({ length: Math.max(header.cellCount, USER_IMPORT_HEADERS.length) }, (_, i) =>
    cellText(header.getCell(i + 1)),
  );
  // Formatted but empty cells after the last heading are not headings.
  while (headings.length > USER_IMPORT_HEADERS.length && headings.at(-1) === '') headings.pop();
  const matches =
    headings.length === USER_IMPORT_HEADERS.length &&
    headings.every((text, i) => text.toLowerCase() === USER_IMPORT_HEADERS[i]?.toLowerCase());
  if (!matches) throw new ImportFileError(importWrongHeader(USER_IMPORT_HEADERS));

  const rows: Array<{ rowNumber: number; cells: UserImportCells }> = [];
  for (let rowNumber = 2; rowNumber <= sheet.rowCount; rowNumber++) {
    const row = sheet.getRow(rowNumber);
    const texts = USER_IMPORT_COLUMNS.map((_, i) => cellText(row.getCell(i + 1)));
    if (texts.every((text) => text === '')) continue;
    if (rows.length === limits.maxRows) throw new ImportFileError(importTooManyRows(limits.maxRows));
    const cells = Object.fromEntries(
      USER_IMPORT_COLUMNS.map((column, i) => [column.key, texts[i] ?? '']),
    ) as UserImportCells;
    rows.push({ rowNumber, cells });
  }
  if (rows.length === 0) throw new ImportFileError(MESSAGES.userImport.noUsers);
  return rows;
}

/**
 * The example file /public/downloads/files/userimport/BulkUserImport.xlsx (002 §2.4): the Users sheet
 * with the header row an import must keep, every column formatted as text (so contact numbers keep their
 * leading zeros), and an Instructions sheet saying what each column takes.
 */
export async function buildUserImportExample(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const users = workbook.addWorksheet(USER_IMPORT_SHEETS.users);
  users.columns = USER_IMPORT_COLUMNS.map((column) => ({
    header: column.header,
    key: column.key,
    width: Math.max(16, column.example.length + 4),
    style: { numFmt: '@' },
  }));
  users.getRow(1).font = { bold: true };
  users.views = [{ state: 'frozen', ySplit: 1 }];

  const instructions = workbook.addWorksheet(USER_IMPORT_SHEETS.instructions);
  instructions.getCell('A1').value = USER_IMPORT_SHEETS.intro;
  instructions.mergeCells('A1:C1');
  instructions.getRow(1).alignment = { wrapText: true, vertical: 'top' };
  instructions.getRow(1).height = 48;
  const headingRow = instructions.getRow(3);
  headingRow.values = [...USER_IMPORT_SHEETS.instructionsHeaders];
  headingRow.font = { bold: true };
  USER_IMPORT_COLUMNS.forEach((column, i) => {
    instructions.getRow(4 + i).values = [column.header, column.description, column.example];
  });
  instructions.getColumn(1).width = 18;
  instructions.getColumn(2).width = 80;
  instructions.getColumn(2).alignment = { wrapText: true, vertical: 'top' };
  instructions.getColumn(3).width = 26;

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
