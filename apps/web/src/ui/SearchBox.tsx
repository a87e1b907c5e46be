import { TIMINGS } from '@portal/domain';
import { useEffect, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

export interface SearchBoxProps {
  /** Called with the trimmed text once typing pauses; not called again for the same text. */
  onSearch: (search: string) => void;
  label: string;
  placeholder?: string;
  delayMs?: number;
  className?: string;
}

/**
 * The search box of a server-side searched table (002 §2.5): asks once typing pauses, so each keystroke
 * does not become a request. The owner resets its table to the first page on each new search.
 */
export function SearchBox({
  onSearch,
  label,
  placeholder,
  delayMs = TIMINGS.searchDebounceMs,
  className,
}: SearchBoxProps) {
  const [text, setText] = useState('');
  const sent = useRef('');
  // The latest callback, so a parent re-render does not restart the pause.
  const search = useRef(onSearch);
  search.current = onSearch;

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === sent.current) return undefined;
    const timer = setTimeout(() => {
      sent.current = wanted;
      search.current(wanted);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);

  return (
    <Form.Control
      type="search"
      size="sm"
      className={className}
      aria-label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => setText(event.target.value)}
      data-testid="search-box"
    />
  );
}
