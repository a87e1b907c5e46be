import Badge from 'react-bootstrap/Badge';

/** Bootstrap background names a status badge may use. */
export type BadgeVariant = 'primary' | 'secondary' | 'success' | 'danger' | 'warning' | 'info' | 'light' | 'dark';

/** A status → colour table for one enum; the domain will provide these (callers pass the result in). */
export type StatusVariantMap<S extends string> = Readonly<Record<S, BadgeVariant>>;

export interface StatusBadgeProps {
  status: string;
  /** The domain's badge of the status (e.g. userStatusBadge(s)): its text and colour. */
  badge?: { text: string; variant: BadgeVariant };
  /** Defaults to the status with underscores as spaces ('OVER_QUOTA' → 'OVER QUOTA'). */
  label?: string;
  variant?: BadgeVariant;
  className?: string;
}

export function statusLabel(status: string): string {
  return status.replaceAll('_', ' ');
}

// White text is unreadable on these backgrounds; the contrast follows from the variant, not the status.
const DARK_TEXT: ReadonlySet<BadgeVariant> = new Set(['warning', 'info', 'light']);

/** A badge for one enum value. It takes no colour decisions: the caller passes the variant. */
export function StatusBadge({ status, badge, label, variant, className }: StatusBadgeProps) {
  const colour = variant ?? badge?.variant ?? 'secondary';
  return (
    <Badge
      bg={colour}
      text={DARK_TEXT.has(colour) ? 'dark' : undefined}
      className={className}
      data-testid="status-badge"
      data-status={status}
    >
      {label ?? badge?.text ?? statusLabel(status)}
    </Badge>
  );
}
