import { type ReactNode, startTransition, useEffect, useState } from 'react';

/**
 * Its children once the browser has painted the render that mounted it (a frame, then a task), as a deferred update:
 * a page's first paint then carries what is at its top only, and the rest follows in React's slices (issue 31,
 * phones: the task page's largest paint, its controls, waited for the render of every section below them).
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => startTransition(() => setShown(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, []);
  return shown ? children : null;
}
