/** Test-only helpers for the ui components' tests (not imported by the app). */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';

/** A dialog shown at first and hidden when it asks (its onHide); the Open button shows it again. */
export function Reopenable({ children }: { children: (dialog: { show: boolean; onHide: () => void }) => ReactNode }) {
  const [show, setShow] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShow(true)}>
        Open
      </button>
      {children({ show, onHide: () => setShow(false) })}
    </>
  );
}

/** Renders a Reopenable dialog; answers the user-event handle. */
export function renderReopenable(dialog: (shown: { show: boolean; onHide: () => void }) => ReactNode) {
  render(<Reopenable>{dialog}</Reopenable>);
  return userEvent.setup();
}
