import { randomBytes } from 'node:crypto';
import { ROUTES, USER_IMPORT_HEADERS, XLSX_KIND } from '@portal/domain';
import ExcelJS from 'exceljs';
import type { TestClient } from '../../testing/client.js';

/**
 * Import files and uploads for the import tests and the import benchmark (bench/user-import): rows in the
 * example's columns, a spreadsheet of them, and the multipart POST the web app's import dialog sends.
 */

export type Row = [string, string, string, string, string, string];
let sequence = 0;
/** A good row with a fresh e-mail address. */
export const row = (
  overrides: Partial<Record<'first' | 'surname' | 'email' | 'contact' | 'role' | 'readOnly', string>> = {},
) => {
  sequence += 1;
  return [
    overrides.first ?? 'Imported',
    overrides.surname ?? `Person ${sequence}`,
    overrides.email ?? `imported.${sequence}@alpha.test`,
    overrides.contact ?? '0123 456',
    overrides.role ?? 'User',
    overrides.readOnly ?? 'No',
  ] as Row;
};

export async function spreadsheet(rows: Row[], header: readonly string[] = USER_IMPORT_HEADERS): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Users');
  sheet.addRow([...header]);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export interface Upload {
  data: Buffer;
  filename?: string;
  type?: string;
}

/** POSTs a multipart body as the web app's import dialog does. */
export function upload(client: TestClient, file: Upload | null, skipAlreadyExisting?: boolean) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  if (skipAlreadyExisting !== undefined) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="skipAlreadyExisting"\r\n\r\n${skipAlreadyExisting}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'users.xlsx'}"\r\nContent-Type: ${file.type ?? XLSX_KIND.mimeTypes[0]}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return client.request({
    method: 'POST',
    url: ROUTES.users.import.build(),
    headers: {
      accept: 'application/json',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-csrf-token': client.csrf,
    },
    payload: Buffer.concat(chunks),
  });
}
