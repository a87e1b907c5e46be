import type { ServerMessage } from '@portal/domain';
import Alert from 'react-bootstrap/Alert';

export interface GlobalErrorsProps {
  messages: readonly ServerMessage[];
  className?: string;
}

/** The server's messages that belong to no field, shown under the form (000 §5, 001 §5). */
export function GlobalErrors({ messages, className }: GlobalErrorsProps) {
  if (messages.length === 0) return null;
  // The same text twice (e.g. one rule failing for two ids) says nothing new.
  const texts = [...new Set(messages.map((m) => m.message))];
  return (
    <Alert variant="danger" className={className ?? 'mt-3 mb-0 py-2'} data-testid="global-errors">
      {texts.map((text) => (
        <div key={text}>{text}</div>
      ))}
    </Alert>
  );
}
