import Pagination from 'react-bootstrap/Pagination';

export interface PagerProps {
  /** Zero-based current page. */
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** How many numbered pages are shown around the current one. */
  windowSize?: number;
  'aria-label'?: string;
  className?: string;
}

/** The numbered pages to show: a window of `windowSize` around `page`, clamped to the ends. */
export function pageWindow(page: number, totalPages: number, windowSize: number): number[] {
  const size = Math.max(1, Math.min(windowSize, totalPages));
  const start = Math.max(0, Math.min(page - Math.floor(size / 2), totalPages - size));
  return Array.from({ length: size }, (_, i) => start + i);
}

/**
 * First / previous / numbered window / next / last. Renders nothing for a single page, because the
 * spec shows paging only when there is more than one page (000 §2).
 */
export function Pager({
  page,
  totalPages,
  onPageChange,
  windowSize = 5,
  'aria-label': ariaLabel = 'Pagination',
  className,
}: PagerProps) {
  if (totalPages <= 1) return null;
  const last = totalPages - 1;
  const atStart = page <= 0;
  const atEnd = page >= last;
  const go = (target: number) => () => {
    if (target !== page) onPageChange(target);
  };
  return (
    <nav aria-label={ariaLabel} data-testid="pager" className={className}>
      <Pagination className="mb-0">
        <Pagination.First aria-label="First page" disabled={atStart} onClick={go(0)} />
        <Pagination.Prev aria-label="Previous page" disabled={atStart} onClick={go(page - 1)} />
        {pageWindow(page, totalPages, windowSize).map((p) => (
          <Pagination.Item
            key={p}
            active={p === page}
            // aria-current names the current page for assistive tech, so the '(current)' suffix is redundant.
            activeLabel=""
            aria-current={p === page ? 'page' : undefined}
            aria-label={`Page ${p + 1}`}
            onClick={go(p)}
          >
            {p + 1}
          </Pagination.Item>
        ))}
        <Pagination.Next aria-label="Next page" disabled={atEnd} onClick={go(page + 1)} />
        <Pagination.Last aria-label="Last page" disabled={atEnd} onClick={go(last)} />
      </Pagination>
    </nav>
  );
}
