import { type ReactNode, useId } from 'react';
import ProgressBar from 'react-bootstrap/ProgressBar';

/** From this percentage the bar turns orange (000 §9). To move to the domain package. */
export const USAGE_WARNING_PERCENT = 75;
/** From this percentage the bar turns red (000 §9). To move to the domain package. */
export const USAGE_DANGER_PERCENT = 95;
/** Shown while usage is loading (000 §9). Not in the domain package yet. */
export const USAGE_CALCULATING_TEXT = 'Calculating...';

export type UsageVariant = 'success' | 'warning' | 'danger';

/** Used share in percent; nothing available but something used counts as full. */
export function usagePercent(used: number, total: number): number {
  if (total > 0) return (used / total) * 100;
  return used > 0 ? 100 : 0;
}

/** Green under 75 %, orange from 75 % to under 95 %, red from 95 % (000 §9). */
export function usageVariant(percent: number): UsageVariant {
  if (percent >= USAGE_DANGER_PERCENT) return 'danger';
  if (percent >= USAGE_WARNING_PERCENT) return 'warning';
  return 'success';
}

export interface UsageBarProps {
  used: number;
  total: number;
  /** E.g. 'Used: 1 GB of 10 GB, available: 9 GB' (001 §4); the caller formats it. */
  label: ReactNode;
  loading?: boolean;
  /** When the usage could not be read: a full red bar with this text (001 §4 'Could not obtain storage size'). */
  errorText?: string;
  className?: string;
}

export function UsageBar({ used, total, label, loading = false, errorText, className }: UsageBarProps) {
  const labelId = useId();
  const percent = usagePercent(used, total);
  let bar: { now: number; variant?: UsageVariant; animated?: boolean; text: ReactNode };
  if (loading) bar = { now: 100, animated: true, text: USAGE_CALCULATING_TEXT };
  else if (errorText !== undefined) bar = { now: 100, variant: 'danger', text: errorText };
  // The width is capped at a full bar; the colour still reflects an over-quota share.
  else bar = { now: Math.min(100, Math.max(0, percent)), variant: usageVariant(percent), text: label };

  return (
    <div className={className} data-testid="usage-bar">
      <div id={labelId} className="small mb-1" data-testid="usage-label">
        {bar.text}
      </div>
      <ProgressBar>
        <ProgressBar
          now={bar.now}
          variant={bar.variant}
          animated={bar.animated}
          aria-labelledby={labelId}
          aria-busy={loading}
          data-variant={bar.variant ?? 'loading'}
        />
      </ProgressBar>
    </div>
  );
}
