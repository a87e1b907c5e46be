import { z } from 'zod';
import { ROLE_NAMES, type Role } from './enums.js';
import { USER_FORM_LABELS, userDetailFields } from './forms/user.js';
import { fieldNotValid, fieldRequired, importDuplicateEmail, importRowProblem } from './messages.js';

/**
 * Bulk user import (002 §5.3, §8.2). The example file /public/downloads/files/userimport/BulkUserImport.xlsx
 * is built by the server from these columns; an upload is accepted only when its first sheet's first row
 * holds exactly these headings, in this order. Each further row is one user, checked with the user form's
 * rules (002 §5.1) less the password: every imported user gets a unique random password, which is neither
 * mailed nor shown (users choose their own through Forgot password).
 */
export const USER_IMPORT_COLUMNS = [
  {
    key: 'firstName',
    header: USER_FORM_LABELS.firstName,
    description: 'Required, at most 50 characters.',
    example: 'Jane',
  },
  { key: 'surname', header: USER_FORM_LABELS.surname, description: 'Required, at most 50 characters.', example: 'Doe' },
  {
    key: 'email',
    header: USER_FORM_LABELS.email,
    description:
      'Required, a valid e-mail address of at most 100 characters, not used by any other user and not repeated in the file.',
    example: 'jane.doe@example.com',
  },
  {
    key: 'contactNumber',
    header: USER_FORM_LABELS.contactNumber,
    description: 'Required, at most 50 characters. Keep the column formatted as text so leading zeros stay.',
    example: '+44 20 7946 0000',
  },
  {
    key: 'role',
    header: USER_FORM_LABELS.role,
    description: `Required: ${ROLE_NAMES.ROLE_CUSTOMER_USER} or ${ROLE_NAMES.ROLE_CUSTOMER_ADMIN_USER}. Only a super admin may import admins.`,
    example: ROLE_NAMES.ROLE_CUSTOMER_USER,
  },
  {
    key: 'readOnly',
    header: USER_FORM_LABELS.readOnly,
    description: 'Yes or No; empty means No. A read-only user can look but not change anything.',
    example: 'No',
  },
] as const;
export type UserImportColumnKey = (typeof USER_IMPORT_COLUMNS)[number]['key'];

/** The headings of the first row, in order. */
export const USER_IMPORT_HEADERS: readonly string[] = USER_IMPORT_COLUMNS.map((c) => c.header);

/** The example file's sheets: the users to fill in, then what each column takes. */
export const USER_IMPORT_SHEETS = {
  users: 'Users',
  instructions: 'Instructions',
  instructionsHeaders: ['Column', 'What to enter', 'Example'],
  intro:
    'Fill in one user per row on the Users sheet, below its first row, and keep that row as it is. Each user gets a random password that is not sent to anyone: users set their own with Forgot password on the sign-in page.',
} as const;

/** The example file's name and type. */
export const USER_IMPORT_EXAMPLE = {
  fileName: 'BulkUserImport.xlsx',
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** What a finished import reports (issue #6 contract); a 409 carries it beside the problems. */
export interface UserImportResult {
  imported: number;
  skipped: number;
}

/**
 * Ours: what one upload may hold. The size and row limits keep an import within a request's time; the
 * unpacked size and entry count guard the server against a compressed file that unpacks to gigabytes
 * (an .xlsx is a zip archive).
 */
export const USER_IMPORT_LIMITS = {
  maxFileBytes: 2 * 1024 * 1024,
  maxRows: 5_000,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxZipEntries: 100,
} as const;

const READ_ONLY_TEXTS: Record<string, boolean> = { yes: true, no: false, '': false };

/** A role cell: a role's name ('User', 'Admin') or its code, in any case. */
export function roleOfCell(text: string): Role | null {
  const wanted = text.trim().toLowerCase();
  const found = (Object.entries(ROLE_NAMES) as Array<[Role, string]>).find(
    ([role, name]) => name.toLowerCase() === wanted || role.toLowerCase() === wanted,
  );
  return found ? found[0] : null;
}

/** One import row's cells as text, by column. */
export type UserImportCells = Record<UserImportColumnKey, string>;

/** A user of an import row, ready to be added. */
export interface UserImportUser {
  rowNumber: number;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  role: Role;
  readOnly: boolean;
}

const detailsSchema = z.object(userDetailFields);

/**
 * Checks one row with the user form's rules; `roles` are those the importing admin may assign. Returns
 * the user, or the row's problems as 'Row {n}: {text}' (002 §8.2).
 */
export function parseUserImportRow(
  rowNumber: number,
  cells: UserImportCells,
  roles: readonly Role[],
): { user: UserImportUser; problems: [] } | { user: null; problems: string[] } {
  const problems: string[] = [];
  const details = detailsSchema.safeParse(cells);
  if (!details.success) {
    const seen = new Set<string>();
    for (const issue of details.error.issues) {
      const field = String(issue.path[0]);
      if (seen.has(field)) continue;
      seen.add(field);
      problems.push(issue.message);
    }
  }
  const roleText = cells.role.trim();
  const role = roleOfCell(roleText);
  if (roleText === '') problems.push(fieldRequired(USER_FORM_LABELS.role));
  else if (role === null || !roles.includes(role)) problems.push(fieldNotValid(USER_FORM_LABELS.role));
  const readOnly = READ_ONLY_TEXTS[cells.readOnly.trim().toLowerCase()];
  if (readOnly === undefined) problems.push(fieldNotValid(USER_FORM_LABELS.readOnly));

  if (!details.success || role === null || readOnly === undefined || problems.length > 0) {
    return { user: null, problems: problems.map((text) => importRowProblem(rowNumber, text)) };
  }
  return { user: { rowNumber, ...details.data, role, readOnly }, problems: [] };
}

/**
 * Checks every row of an import (002 §5.3): each with the user form's rules, and no e-mail address twice
 * in the file (compared without case). Returns the users of the rows without problems and every problem,
 * in row order; an import with any problem saves nothing (002 §8.2 'No users imported due to validation
 * errors:').
 */
export function checkUserImportRows(
  rows: ReadonlyArray<{ rowNumber: number; cells: UserImportCells }>,
  roles: readonly Role[],
): { users: UserImportUser[]; problems: string[] } {
  const users: UserImportUser[] = [];
  const problems: string[] = [];
  const firstRowOfEmail = new Map<string, number>();
  for (const { rowNumber, cells } of rows) {
    const parsed = parseUserImportRow(rowNumber, cells, roles);
    problems.push(...parsed.problems);
    const email = cells.email.trim().toLowerCase();
    const first = email === '' ? undefined : firstRowOfEmail.get(email);
    if (first !== undefined) problems.push(importRowProblem(rowNumber, importDuplicateEmail(first)));
    else if (email !== '') firstRowOfEmail.set(email, rowNumber);
    if (parsed.user && first === undefined) users.push(parsed.user);
  }
  return { users, problems };
}
