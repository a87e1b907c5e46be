/** Test-only: a dialog under test, shown from the start (not imported by the app). */
import { type ReactNode, useState } from 'react';

/**
 * Shows `dialog` at once; its onHide closes it as a page would, and the Open button shows it again (to test
 * what a dialog keeps or forgets between two openings).
 */
export function OpenDialog({ dialog }: { dialog: (open: { show: boolean; onHide: () => void }) => ReactNode }) {
  const [show, setShow] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShow(true)}>
        Open
      </button>
      {dialog({ show, onHide: () => setShow(false) })}
    </>
  );
}
