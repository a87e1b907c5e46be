import { useEffect, useRef } from 'react';

/**
 * Runs `onOpen` each time `show` turns true, and not while the dialog stays open: a form that starts
 * from a record keeps its messages when that record is refreshed behind the open dialog.
 */
export function useOnOpen(show: boolean, onOpen: () => void) {
  const open = useRef(false);
  const latest = useRef(onOpen);
  latest.current = onOpen;
  useEffect(() => {
    if (show && !open.current) latest.current();
    open.current = show;
  }, [show]);
}
