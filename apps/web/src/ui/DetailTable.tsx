import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';

export interface DetailRow {
  /** Stable key; defaults to the label when it is a string. */
  key?: string;
  label: string;
  value: ReactNode;
}

export interface DetailTableProps {
  rows: ReadonlyArray<DetailRow | false | null | undefined>;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * A label / value summary of one record (001 §2 account details, 002 §2.4 user detail summary): one row
 * per field, the label as the row header. Falsy entries are left out, so a hidden field reads
 * `condition && { label, value }`. On a narrow screen each label stands above its value (app.css).
 */
export function DetailTable({
  rows,
  'aria-label': ariaLabel,
  'data-testid': testId = 'detail-table',
}: DetailTableProps) {
  const shown = rows.filter((row): row is DetailRow => Boolean(row));
  return (
    <Table size="sm" className="portal-detail-table mb-0" aria-label={ariaLabel} data-testid={testId}>
      <tbody>
        {shown.map((row) => (
          <tr key={row.key ?? row.label}>
            <th scope="row" className="text-nowrap fw-semibold">
              {row.label}
            </th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
