import type { ServerMessage } from '@portal/domain';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GlobalErrors } from './GlobalErrors';

const msg = (message: string): ServerMessage => ({ type: 'ERROR', fieldName: '', message, responseCode: 'X' });

describe('GlobalErrors', () => {
  it('renders nothing without messages', () => {
    const { container } = render(<GlobalErrors messages={[]} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('announces every distinct message in one alert', () => {
    render(
      <GlobalErrors messages={[msg('Machine is offline'), msg('Package is suspended'), msg('Machine is offline')]} />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Machine is offlinePackage is suspended');
    expect(screen.getAllByText('Machine is offline')).toHaveLength(1);
  });
});
