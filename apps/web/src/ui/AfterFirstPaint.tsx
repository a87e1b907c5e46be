import { type ReactNode, startTransition, useEffect, useState } from 'react';
import { whenIdle } from './whenIdle';

/**
 * Its children once the browser has painted the render that mounted it (a frame, then a task; with `idle`, a frame,
 * then the browser's first idle moment), as a deferred update: a page's first paint then carries what is at its top
 * only, and the rest follows in React's slices (issue 31, phones: the task page's largest paint, its controls,
 * waited for the render of every section below them). `idle` is for what also loads code: on a phone's network its
 * requests then start after the paint is on the screen rather than beside it.
 */
export function AfterFirstPaint({ children, idle = false }: { children: ReactNode; idle?: boolean }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let cancel: (() => void) | undefined;
    const show = () => startTransition(() => setShown(true));
    const frame = requestAnimationFrame(() => {
      if (idle) {
        cancel = whenIdle(show);
      } else {
        const timer = window.setTimeout(show);
        cancel = () => window.clearTimeout(timer);
      }
    });
    return () => {
      cancelAnimationFrame(frame);
      cancel?.();
    };
  }, [idle]);
  return shown ? children : null;
}
