import {
  FILE_SEARCH_TEXTS,
  type FileSearchHit,
  fileSearchOutcomeText,
  formatBytes,
  type OsFamily,
} from '@portal/domain';
import Spinner from 'react-bootstrap/Spinner';
import { localDateTime } from '../../ui';
import type { useFileSearch } from './useFileSearch';

const T = FILE_SEARCH_TEXTS;

/** What a file's history offers: download always, restore when the caller may change the machine's data. */
export interface HistoryActions {
  osFamily: OsFamily;
  restore: boolean;
  downloadDisabled: boolean;
  onRestoreStarted?: () => void;
}

export const timeText = (iso: string | null) => (iso ? localDateTime(iso) : '');
export const sizeText = (hit: Pick<FileSearchHit, 'type' | 'size'>) =>
  hit.type === 'DIRECTORY' ? T.folder : hit.size === null ? '' : formatBytes(hit.size);

/** The state line under a search: searching, the count, and why it ended when that says more. */
export function SearchStatus({
  search,
  emptyText,
}: {
  search: Pick<ReturnType<typeof useFileSearch>, 'running' | 'hits' | 'outcome' | 'message' | 'refusal' | 'searchId'>;
  emptyText: string;
}) {
  if (search.searchId === null) return null;
  const ended = search.outcome ? (search.refusal ?? fileSearchOutcomeText(search.outcome, search.message)) : null;
  return (
    <div className="small mb-2" role="status" data-testid="file-search-status">
      {search.running && (
        <span className="me-2">
          <Spinner animation="border" size="sm" className="me-1" />
          {T.searching}
        </span>
      )}
      {search.hits.length > 0 && <span className="me-2">{T.found(search.hits.length)}</span>}
      {!search.running && search.hits.length === 0 && search.outcome === 'COMPLETE' && <span>{emptyText}</span>}
      {ended && (
        <span
          className={search.outcome === 'LIMIT_REACHED' ? 'text-warning-emphasis' : 'text-danger'}
          data-testid="file-search-ended"
        >
          {ended}
        </span>
      )}
    </div>
  );
}
