import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './enums.js';
import {
  checkUserImportRows,
  parseUserImportRow,
  roleOfCell,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_HEADERS,
  type UserImportCells,
} from './user-import.js';

const cells = (overrides: Partial<UserImportCells> = {}): UserImportCells => ({
  firstName: 'Jane',
  surname: 'Doe',
  email: 'jane@example.com',
  contactNumber: '0123',
  role: 'User',
  readOnly: 'No',
  ...overrides,
});
const USER_ONLY = ['ROLE_CUSTOMER_USER'] as const;
const BOTH = ['ROLE_CUSTOMER_USER', 'ROLE_CUSTOMER_ADMIN_USER'] as const;

describe('the import columns (002 §5.3)', () => {
  it('are the user form labels, in the example file order', () => {
    expect(USER_IMPORT_HEADERS).toEqual(['First name', 'Surname', 'Email', 'Contact number', 'Role', 'Read only']);
    expect(USER_IMPORT_COLUMNS.every((c) => c.description.length > 0 && c.example.length > 0)).toBe(true);
  });

  it('reads roles by name or code, in any case', () => {
    expect(roleOfCell('user')).toBe('ROLE_CUSTOMER_USER');
    expect(roleOfCell(' Admin ')).toBe('ROLE_CUSTOMER_ADMIN_USER');
    expect(roleOfCell('role_customer_admin_user')).toBe('ROLE_CUSTOMER_ADMIN_USER');
    expect(roleOfCell('boss')).toBeNull();
  });
});

describe('one import row', () => {
  it('gives the user of a good row', () => {
    expect(parseUserImportRow(2, cells({ readOnly: 'yes', role: 'Admin', email: ' j@x.io ' }), BOTH)).toEqual({
      user: {
        rowNumber: 2,
        firstName: 'Jane',
        surname: 'Doe',
        email: 'j@x.io',
        contactNumber: '0123',
        role: 'ROLE_CUSTOMER_ADMIN_USER',
        readOnly: true,
      },
      problems: [],
    });
    expect(parseUserImportRow(3, cells({ readOnly: '' }), USER_ONLY).user?.readOnly).toBe(false);
  });

  it("reports every problem of a row as 'Row n: …' with the user form's messages", () => {
    const { user, problems } = parseUserImportRow(
      4,
      cells({ firstName: '', surname: 'x'.repeat(51), email: 'nope', contactNumber: '', role: '', readOnly: 'maybe' }),
      USER_ONLY,
    );
    expect(user).toBeNull();
    expect(problems).toEqual([
      'Row 4: First name is required',
      'Row 4: Surname must be at most 50 characters',
      'Row 4: Email must be a valid email',
      'Row 4: Contact number is required',
      'Row 4: Role is required',
      'Row 4: Read only is not valid',
    ]);
  });

  it('refuses a role the importing admin may not give', () => {
    expect(parseUserImportRow(5, cells({ role: 'Admin' }), USER_ONLY).problems).toEqual(['Row 5: Role is not valid']);
    expect(parseUserImportRow(5, cells({ role: 'Super admin' }), BOTH).problems).toEqual(['Row 5: Role is not valid']);
  });
});

describe('a whole import', () => {
  it('reports an e-mail address given twice (any case) on the later row, and keeps row order', () => {
    const result = checkUserImportRows(
      [
        { rowNumber: 2, cells: cells() },
        { rowNumber: 3, cells: cells({ firstName: '', email: 'b@example.com' }) },
        { rowNumber: 5, cells: cells({ email: 'JANE@example.com' }) },
      ],
      USER_ONLY,
    );
    expect(result.problems).toEqual(['Row 3: First name is required', 'Row 5: Email is already given in row 2']);
    expect(result.users.map((u) => u.rowNumber)).toEqual([2]);
  });

  it('has no problems exactly when every row is good and every e-mail address differs', () => {
    const arbRow = fc.record({
      firstName: fc.constantFrom('Ann', '', 'x'.repeat(51)),
      surname: fc.constant('Lee'),
      email: fc.constantFrom('a@x.io', 'b@x.io', 'A@X.IO', 'bad'),
      contactNumber: fc.constant('1'),
      role: fc.constantFrom('User', 'Admin', ''),
      readOnly: fc.constantFrom('Yes', 'No', ''),
    });
    fc.assert(
      fc.property(fc.array(arbRow, { maxLength: 6 }), fc.subarray([...ROLES]), (rows, roles) => {
        const numbered = rows.map((c, i) => ({ rowNumber: i + 2, cells: c }));
        const { users, problems } = checkUserImportRows(numbered, roles);
        const emails = rows.map((r) => r.email.toLowerCase());
        const allGood = numbered.every((r) => parseUserImportRow(r.rowNumber, r.cells, roles).user !== null);
        expect(problems.length === 0).toBe(allGood && new Set(emails).size === emails.length);
        if (problems.length === 0) expect(users).toHaveLength(rows.length);
        for (const problem of problems) expect(problem).toMatch(/^Row \d+: /);
      }),
    );
  });
});
