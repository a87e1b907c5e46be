import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';

export interface RowLinkProps {
  /** The page the row opens. */
  to: string;
  /** The button's text, e.g. 'Manage' or 'View'. */
  label: string;
  /** What the row is called, so each row's button has its own accessible name ('Manage Jane Doe'). */
  name: string;
  /** A row the signed-in user may not open: a disabled button with this text instead (001 §2 'Not accessible'). */
  disabledLabel?: string;
}

/** The Manage / View button of a table row (001 §2, 002 §2.4): a link styled as a small button. */
export function RowLink({ to, label, name, disabledLabel }: RowLinkProps) {
  if (disabledLabel !== undefined) {
    return (
      <Button size="sm" variant="outline-secondary" disabled>
        {disabledLabel}
      </Button>
    );
  }
  return (
    <Link className="btn btn-sm btn-outline-primary" to={to} aria-label={`${label} ${name}`}>
      {label}
    </Link>
  );
}

export interface RowButtonProps {
  /** The button's text, e.g. 'Edit' or 'Approve'. */
  label: string;
  /** What the row is called, so each row's button has its own accessible name ('Edit Gold'). */
  name: string;
  onClick: () => void;
  variant?: string;
  disabled?: boolean;
}

/** A small action button of a table row (Edit, Delete, Approve…), named after its row like RowLink. */
export function RowButton({ label, name, onClick, variant = 'outline-primary', disabled }: RowButtonProps) {
  return (
    <Button size="sm" variant={variant} disabled={disabled} aria-label={`${label} ${name}`} onClick={onClick}>
      {label}
    </Button>
  );
}
