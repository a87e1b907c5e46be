import { MESSAGES } from '@portal/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NotFound } from './NotFound';

describe('NotFound', () => {
  it('says the page does not exist and leads back to the dashboard', async () => {
    render(
      <MemoryRouter initialEntries={['/no/such/page']}>
        <Routes>
          <Route path="/" element={<p>dashboard home</p>} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.notFound)).toBeInTheDocument();
    const link = screen.getByRole('link');
    expect(link).toHaveAttribute('href', '/');
    await userEvent.setup().click(link);
    expect(screen.getByText('dashboard home')).toBeInTheDocument();
  });
});
