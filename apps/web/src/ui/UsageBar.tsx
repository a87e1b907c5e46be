import { type StorageBarState, type StorageFigures, storageBar } from '@portal/domain';
import { useId } from 'react';
import ProgressBar from 'react-bootstrap/ProgressBar';

export interface UsageBarProps {
  /** Loading, failed, or the used/total/available figures of a package or machine. */
  state: StorageBarState;
  /** The text while loading: 'Loading' by default, 'Calculating...' on the package table (000 §9). */
  loadingText?: string;
  className?: string;
}

/** A storage usage bar; its colour, texts and thresholds are the domain's storageBar rule (000 §9, 001 §4). */
export function UsageBar({ state, loadingText, className }: UsageBarProps) {
  const labelId = useId();
  const bar = storageBar(state, loadingText);
  return (
    <div className={className} data-testid="usage-bar">
      <div id={labelId} className="small mb-1" data-testid="usage-label">
        {bar.text}
      </div>
      <ProgressBar>
        <ProgressBar
          now={bar.percent}
          variant={bar.variant}
          animated={bar.animated}
          aria-labelledby={labelId}
          aria-busy={state.kind === 'loading'}
        />
      </ProgressBar>
    </div>
  );
}

/** The bar state of a storage query: failed, loaded with the figures its answer gives, or still loading. */
export function storageBarStateOf<T>(
  query: { isError: boolean; data: T | undefined },
  figures: (data: T) => StorageFigures,
): StorageBarState {
  if (query.isError) return { kind: 'failed' };
  return query.data === undefined ? { kind: 'loading' } : { kind: 'loaded', ...figures(query.data) };
}
