import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

export interface SectionProps {
  title: string;
  /** Buttons on the right of the heading. */
  actions?: ReactNode;
  /** The anchor a link can jump to (e.g. a customer page's '#packages'). */
  id?: string;
  className?: string;
  children: ReactNode;
}

/** One titled part of a detail page (details, users, packages): a card with an h2 heading. */
export function Section({ title, actions, id, className = 'mb-4', children }: SectionProps) {
  return (
    <Card className={className} id={id}>
      <Card.Header className="d-flex align-items-center justify-content-between gap-2">
        <h2 className="h6 mb-0">{title}</h2>
        {actions}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card>
  );
}
