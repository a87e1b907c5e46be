import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Page } from './Page';

describe('Page', () => {
  it('shows breadcrumbs with links except for the current page', () => {
    render(
      <MemoryRouter>
        <Page
          title="alpha-01"
          breadcrumbs={[
            { label: 'Dashboard', href: '/' },
            { label: 'Backup machines', href: '/backupmachines' },
            { label: 'alpha-01' },
          ]}
        />
      </MemoryRouter>,
    );
    const trail = screen.getByRole('navigation', { name: 'breadcrumb' });
    expect(within(trail).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    expect(within(trail).getByRole('link', { name: 'Backup machines' })).toHaveAttribute('href', '/backupmachines');
    expect(within(trail).queryByRole('link', { name: 'alpha-01' })).toBeNull();
    expect(within(trail).getByText('alpha-01').closest('[aria-current="page"]')).not.toBeNull();
  });

  it('shows the heading with icon and subtitle, the page actions and the content', () => {
    render(
      <MemoryRouter>
        <Page
          title="Storage accounts"
          subtitle="Where backups are stored"
          icon={<svg data-testid="icon" />}
          actions={<button type="button">Migrate</button>}
        >
          <p>content</p>
        </Page>
      </MemoryRouter>,
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'Storage accounts' });
    expect(heading).toContainElement(screen.getByTestId('icon'));
    expect(screen.getByRole('region', { name: 'Storage accounts' })).toContainElement(screen.getByText('content'));
    expect(screen.getByTestId('page-subtitle')).toHaveTextContent('Where backups are stored');
    expect(within(screen.getByTestId('page-actions')).getByRole('button', { name: 'Migrate' })).toBeInTheDocument();
  });

  it('leaves out breadcrumbs, subtitle and actions when there are none', () => {
    render(
      <MemoryRouter>
        <Page title="Dashboard" />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByTestId('page-subtitle')).toBeNull();
    expect(screen.queryByTestId('page-actions')).toBeNull();
  });
});
