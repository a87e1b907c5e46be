import { type RefObject, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** The sidebar's fold on a narrow screen (issue 31): below the `md` breakpoint it shows only while `open`. */
export interface SidebarMenu {
  open: boolean;
  /** The sidebar's element id, which the menu button controls. */
  sidebarId: string;
  buttonRef: RefObject<HTMLButtonElement | null>;
  toggle: () => void;
}

/**
 * A disclosure: the menu button opens the sidebar and focus moves to its first entry; Escape closes it and gives
 * focus back to the button. It is open on the page it was opened on only, so following one of its links closes it.
 */
export function useSidebarMenu(): SidebarMenu {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const sidebarId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const toggle = useCallback(() => setOpenOn((current) => (current === pathname ? null : pathname)), [pathname]);

  useEffect(() => {
    if (!open) return;
    document.getElementById(sidebarId)?.querySelector<HTMLElement>('a, button')?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [open, sidebarId]);

  return { open, sidebarId, buttonRef, toggle };
}
