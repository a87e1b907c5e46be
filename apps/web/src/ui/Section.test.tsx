import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Section } from './Section';

describe('Section', () => {
  it('titles its content with a second-level heading, with actions beside it and an anchor', () => {
    const { container } = render(
      <Section title="Backup packages" id="packages" actions={<button type="button">Add</button>}>
        <p>rows</p>
      </Section>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Backup packages' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(container.querySelector('#packages')).toContainElement(screen.getByText('rows'));
  });
});
