import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DetailTable } from './DetailTable';

describe('DetailTable', () => {
  it('shows one row per field with the label as row header, leaving out hidden fields', () => {
    const hidden = false;
    render(
      <DetailTable
        aria-label="Details"
        rows={[{ label: 'Name', value: 'Contoso' }, hidden && { label: 'Secret', value: 'x' }, null]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Details' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(1);
    expect(within(rows[0] as HTMLElement).getByRole('rowheader', { name: 'Name' })).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('Contoso')).toBeInTheDocument();
    expect(screen.queryByText('Secret')).not.toBeInTheDocument();
  });
});
