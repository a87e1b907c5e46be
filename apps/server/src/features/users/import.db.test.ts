import { randomBytes } from 'node:crypto';
import { createDeflateRaw } from 'node:zlib';
import {
  type Envelope,
  importFileTooLarge,
  importTooManyRows,
  importWrongHeader,
  MESSAGES,
  ROUTES,
  USER_IMPORT_HEADERS,
  USER_IMPORT_LIMITS,
  USER_IMPORT_SHEETS,
  XLSX_KIND,
} from '@portal/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { generatedPasswordHash, hashPassword } from '../auth/passwords.js';
import { createUserImportService } from './import.js';
import { createUsersRepo } from './repo.js';
import { type Row, row, spreadsheet, upload } from './testing.js';
import { checkZipArchive, readUserImportFile } from './xlsx.js';

let t: TestApp;
let tenants: Tenants;
let superAdmin: TestClient;

const body = (response: LightMyRequestResponse) => response.json() as Envelope<{ imported: number; skipped: number }>;
const messageTexts = (response: LightMyRequestResponse) => body(response).messages.map((m) => m.message);
const fileError = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(400);
  const { messages } = body(response);
  expect(messages).toHaveLength(1);
  expect(messages[0]?.fieldName).toBe('file');
  return messages[0]?.message;
};

const usersWithEmails = (emails: string[]) =>
  t.database.db
    .select()
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        emails.map((e) => e.toLowerCase()),
      ),
    );
const emailsOf = (rows: Row[]) => rows.map((r) => r[2]);

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  expect((await client.signIn(email, FIXTURE_PASSWORD)).headers.location).toBe('/');
  return client;
}

/** A zip record of `size` bytes with its fixed fields, by offset: 32-bit and 16-bit little-endian numbers. */
function zipRecord(size: number, words: Record<number, number>, halfWords: Record<number, number>): Buffer {
  const record = Buffer.alloc(size);
  for (const [at, value] of Object.entries(words)) record.writeUInt32LE(value, Number(at));
  for (const [at, value] of Object.entries(halfWords)) record.writeUInt16LE(value, Number(at));
  return record;
}

/** A zip of one entry, written by hand so the test decides what the directory declares. */
function zipOf(name: string, deflated: Buffer, declaredSize: number, entries = 1): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    const fileName = Buffer.from(entries === 1 ? name : `${i}-${name}`);
    // Signature, the sizes as declared; version 2.0, deflated (method 8), the name's length.
    const local = zipRecord(
      30,
      { 0: 0x04034b50, 18: deflated.length, 22: declaredSize },
      { 4: 20, 8: 8, 26: fileName.length },
    );
    const central = zipRecord(
      46,
      { 0: 0x02014b50, 20: deflated.length, 24: declaredSize, 42: offset },
      { 4: 20, 6: 20, 10: 8, 28: fileName.length },
    );
    locals.push(local, fileName, deflated);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = zipRecord(22, { 0: 0x06054b50, 12: directory.length, 16: offset }, { 8: entries, 10: entries });
  return Buffer.concat([...locals, directory, end]);
}

/** `megabytes` of zeros, deflated as one raw stream fed in 1 MB chunks (small and quick to make). */
async function deflatedZeros(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  superAdmin = await signedIn(tenants.customerA.superAdmin.email);
});
afterAll(() => t.close());

describe('the example file (002 §2.4, §5.3)', () => {
  it('is a public .xlsx with the import header row and a sheet explaining the columns', async () => {
    const response = await new TestClient(t.app).request({
      method: 'GET',
      url: ROUTES.users.importExample.build(),
      headers: { accept: 'text/html,application/xhtml+xml,*/*' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_KIND.mimeTypes[0]);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="BulkUserImport.xlsx"; filename*=UTF-8''BulkUserImport.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual([USER_IMPORT_SHEETS.users, USER_IMPORT_SHEETS.instructions]);
    const header = workbook.worksheets[0]?.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([...USER_IMPORT_HEADERS]);
    const instructions = workbook.worksheets[1];
    expect(instructions?.getRow(4).getCell(1).text).toBe('First name');
    expect(instructions?.getCell('A1').text).toBe(USER_IMPORT_SHEETS.intro);

    // Filled in, the example imports; untouched, it has no users.
    expect(fileError(await upload(superAdmin, { data: response.rawPayload }))).toBe(MESSAGES.userImport.noUsers);
    const users = workbook.worksheets[0];
    const filled = row();
    users?.addRow(filled);
    const imported = await upload(superAdmin, { data: Buffer.from(await workbook.xlsx.writeBuffer()) });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await usersWithEmails(emailsOf([filled]))).toHaveLength(1);
  });
});

describe('bulk import (POST /admin/account/users/import)', () => {
  it('saves every row with a unique unknown password, mailing nothing', async () => {
    const rows = [row({ role: 'Admin', readOnly: 'Yes' }), row(), row({ email: 'MiXeD.Case@Alpha.test' })];
    const mailsBefore = t.mails.list().length;
    const response = await upload(superAdmin, { data: await spreadsheet(rows) }, false);
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response)).toMatchObject({
      status: 'OK',
      messages: [],
      result: { imported: 3, skipped: 0 },
    });
    const saved = await usersWithEmails(emailsOf(rows));
    expect(saved).toHaveLength(3);
    expect(saved.every((u) => u.customerId === tenants.customerA.customerId && u.status === 'ACTIVE')).toBe(true);
    const admin = saved.find((u) => u.email === rows[0]?.[2]);
    expect(admin).toMatchObject({ role: 'ROLE_CUSTOMER_ADMIN_USER', readOnly: true, contactNumber: '0123 456' });
    expect(new Set(saved.map((u) => u.passwordHash)).size).toBe(3);
    expect(saved.every((u) => u.passwordHash.startsWith('$argon2id$'))).toBe(true);
    expect(t.mails.list().length).toBe(mailsBefore);
  });

  it('saves nothing when a row breaks the rules, and names each problem by row', async () => {
    const rows = [row(), row({ email: 'not-an-email', first: '' }), row({ role: 'Boss' })];
    const response = await upload(superAdmin, { data: await spreadsheet(rows) });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toMatchObject({ status: 'ERROR', responseSummaryCode: 'VALIDATION_FAILED', result: null });
    expect(body(response).messages.every((m) => m.fieldName === '')).toBe(true);
    expect(messageTexts(response)).toEqual([
      'Row 3: First name is required',
      'Row 3: Email must be a valid email',
      'Row 4: Role is not valid',
    ]);
    expect(await usersWithEmails(emailsOf(rows))).toEqual([]);
  });

  it('refuses roles the importing admin may not give', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const rows = [row({ role: 'Admin' })];
    const response = await upload(admin, { data: await spreadsheet(rows) });
    expect(messageTexts(response)).toEqual(['Row 2: Role is not valid']);
    expect(await usersWithEmails(emailsOf(rows))).toEqual([]);
  });

  it('treats an e-mail address given twice in the file as a validation error', async () => {
    const first = row();
    const rows = [first, row(), row({ email: first[2].toUpperCase() })];
    const response = await upload(superAdmin, { data: await spreadsheet(rows) }, true);
    expect(response.statusCode).toBe(400);
    expect(messageTexts(response)).toEqual(['Row 4: Email is already given in row 2']);
    expect(await usersWithEmails(emailsOf(rows))).toEqual([]);
  });

  it('reports e-mail addresses already in use and saves the other rows, or skips them when asked', async () => {
    const rows = [row(), row({ email: tenants.customerB.user.email.toUpperCase() }), row()];
    const response = await upload(superAdmin, { data: await spreadsheet(rows) }, false);
    expect(response.statusCode).toBe(409);
    expect(body(response)).toMatchObject({
      status: 'ERROR',
      responseSummaryCode: 'PROCESSING_FAILED',
      result: { imported: 2, skipped: 0 },
    });
    expect(messageTexts(response)).toEqual([`Row 3: ${MESSAGES.emailTaken}`]);
    expect(await usersWithEmails([rows[0]?.[2] ?? '', rows[2]?.[2] ?? ''])).toHaveLength(2);
    const other = await usersWithEmails([tenants.customerB.user.email]);
    expect(other.map((u) => u.customerId)).toEqual([tenants.customerB.customerId]);

    const again = [...rows, row()];
    const skipped = await upload(superAdmin, { data: await spreadsheet(again) }, true);
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(body(skipped)).toMatchObject({ status: 'OK', messages: [], result: { imported: 1, skipped: 3 } });
  });

  it('reports a user added while the import runs for its row, and keeps no half user', async () => {
    const repo = createUsersRepo(t.database.db);
    // The first look finds nothing in use, as if the other user were added just after it.
    const imports = createUserImportService({
      repo: { ...repo, existingEmails: async () => new Set() },
      newPasswordHash: generatedPasswordHash,
    });
    const rows = [row(), row({ email: tenants.customerB.admin.email })];
    const actor = {
      userId: tenants.customerA.superAdmin.id,
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' as const,
      customerId: tenants.customerA.customerId,
      resellerEnabled: false,
      boltCustomer: false,
      readOnly: false,
    };
    const cells = rows.map((r, i) => ({
      rowNumber: i + 2,
      cells: { firstName: r[0], surname: r[1], email: r[2], contactNumber: r[3], role: r[4], readOnly: r[5] },
    }));
    expect(await imports.importUsers(actor, tenants.customerA.customerId, cells, false)).toEqual({
      kind: 'saved',
      imported: 1,
      skipped: 0,
      problems: [`Row 3: ${MESSAGES.emailTaken}`],
    });
    const [taken] = await usersWithEmails([tenants.customerB.admin.email]);
    expect(taken?.customerId).toBe(tenants.customerB.customerId);
  });

  it('lets read-only admins import nothing', async () => {
    const [readOnly] = await t.database.db
      .insert(users)
      .values({
        email: 'readonly.importer@alpha.test',
        role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
        customerId: tenants.customerA.customerId,
        readOnly: true,
        firstName: 'Read',
        surname: 'Only',
        passwordHash: await hashPassword(FIXTURE_PASSWORD),
      })
      .returning({ email: users.email });
    const client = await signedIn(readOnly?.email ?? '');
    const rows = [row()];
    expect((await upload(client, { data: await spreadsheet(rows) })).statusCode).toBe(403);
    expect(await usersWithEmails(emailsOf(rows))).toEqual([]);
  });

  it('imports 1,000 users within 30 seconds', async () => {
    const rows = Array.from({ length: 1000 }, () => row());
    const file = await spreadsheet(rows);
    const started = performance.now();
    const response = await upload(superAdmin, { data: file }, false);
    const seconds = (performance.now() - started) / 1000;
    console.log(`imported 1,000 users in ${seconds.toFixed(1)} s`);
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    expect(body(response).result).toEqual({ imported: 1000, skipped: 0 });
    const [count] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.surname, rows[999]?.[1] ?? ''));
    expect(count?.n).toBe(1);
    expect(await usersWithEmails(emailsOf(rows))).toHaveLength(1000);
    expect(seconds).toBeLessThan(30);
  });
});

describe('files an import refuses (400 on the file field)', () => {
  it('asks for a file', async () => {
    expect(fileError(await upload(superAdmin, null, true))).toBe('File is required');
    expect(fileError(await superAdmin.json('POST', ROUTES.users.import.build(), {}))).toBe('File is required');
  });

  it('accepts only .xlsx by name and type', async () => {
    const csv = Buffer.from('First name,Surname,Email\nJane,Doe,jane@example.com\n');
    expect(fileError(await upload(superAdmin, { data: csv, filename: 'users.csv', type: 'text/csv' }))).toBe(
      MESSAGES.userImport.fileNotXlsx,
    );
    expect(fileError(await upload(superAdmin, { data: await spreadsheet([row()]), filename: 'users.xls' }))).toBe(
      MESSAGES.userImport.fileNotXlsx,
    );
  });

  it('refuses a text file renamed .xlsx, and a zip that is no spreadsheet', async () => {
    expect(fileError(await upload(superAdmin, { data: Buffer.from('just some text, honestly') }))).toBe(
      MESSAGES.userImport.fileUnreadable,
    );
    const plainZip = zipOf('notes.txt', await deflatedZeros(1), 1024 * 1024);
    expect(fileError(await upload(superAdmin, { data: plainZip }))).toBe(MESSAGES.userImport.fileUnreadable);
  });

  it('refuses a header row other than the example file’s', async () => {
    const wrong = ['First name', 'Last name', 'Email', 'Contact number', 'Role', 'Read only'];
    const expected = importWrongHeader(USER_IMPORT_HEADERS);
    expect(fileError(await upload(superAdmin, { data: await spreadsheet([row()], wrong) }))).toBe(expected);
    const extra = [...USER_IMPORT_HEADERS, 'Department'];
    expect(fileError(await upload(superAdmin, { data: await spreadsheet([row()], extra) }))).toBe(expected);
    const missing = USER_IMPORT_HEADERS.slice(0, 5);
    expect(fileError(await upload(superAdmin, { data: await spreadsheet([row()], missing) }))).toBe(expected);
  });

  it('refuses a file over the size limit', async () => {
    const big = Buffer.concat([await spreadsheet([row()]), randomBytes(USER_IMPORT_LIMITS.maxFileBytes)]);
    expect(fileError(await upload(superAdmin, { data: big }))).toBe(
      importFileTooLarge(USER_IMPORT_LIMITS.maxFileBytes / (1024 * 1024)),
    );
  });

  it('refuses more rows than the limit', async () => {
    const rows = Array.from({ length: USER_IMPORT_LIMITS.maxRows + 1 }, () => row());
    expect(fileError(await upload(superAdmin, { data: await spreadsheet(rows) }))).toBe(
      importTooManyRows(USER_IMPORT_LIMITS.maxRows),
    );
    expect(await usersWithEmails(emailsOf(rows.slice(0, 3)))).toEqual([]);
  });

  it('refuses a zip bomb disguised as .xlsx, whatever sizes it declares', async () => {
    const bomb = await deflatedZeros(200);
    expect(bomb.length).toBeLessThan(USER_IMPORT_LIMITS.maxFileBytes);
    for (const declared of [200 * 1024 * 1024, 1000]) {
      const started = performance.now();
      const response = await upload(superAdmin, { data: zipOf('xl/worksheets/sheet1.xml', bomb, declared) });
      expect(fileError(response)).toBe(MESSAGES.userImport.fileUnreadable);
      expect(performance.now() - started).toBeLessThan(5000);
    }
    // Many small entries add up too, and too many entries are refused before any is unpacked.
    const tenMegabytes = await deflatedZeros(10);
    expect(() => checkZipArchive(zipOf('part.xml', tenMegabytes, 1, 6))).toThrow(MESSAGES.userImport.fileUnreadable);
    expect(() => checkZipArchive(zipOf('part.xml', tenMegabytes, 1, 4))).not.toThrow();
    expect(() => checkZipArchive(zipOf('part.xml', Buffer.from([3, 0]), 0, 101))).toThrow(
      MESSAGES.userImport.fileUnreadable,
    );
    await expect(readUserImportFile(zipOf('part.xml', tenMegabytes, 1, 6))).rejects.toThrow(
      MESSAGES.userImport.fileUnreadable,
    );
  });
});
