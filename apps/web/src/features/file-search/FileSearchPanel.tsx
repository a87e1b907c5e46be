import { zodResolver } from '@hookform/resolvers/zod';
import { FILE_SEARCH_TEXTS, type FileSearchHit, fileSearchRequestSchema } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, lazyDialog, TextField, WholeTable } from '../../ui';
import { useStartFileSearch } from './mutations';
import { type HistoryActions, SearchStatus, sizeText, timeText } from './SearchStatus';
import { useFileSearch } from './useFileSearch';

const T = FILE_SEARCH_TEXTS;
// A file's history, with its download and restore dialogs, loads when first opened (issue 31, phones).
const FileHistoryDialog = lazyDialog(
  () => import('./FileHistoryDialog').then((m) => m.FileHistoryDialog),
  (props) => props.file !== null,
);
const formSchema = fileSearchRequestSchema.pick({ pattern: true, ignoreCase: true });
type SearchForm = { pattern: string; ignoreCase: boolean };

/**
 * Find a file (issue 31 item 2): a name or path pattern searched in the snapshots of one task (the task page) or of
 * every task of the machine (the machine page); matches show as they arrive, the search can be stopped, and a match
 * opens its file's history.
 */
export function FileSearchPanel({
  machineId,
  taskId,
  history,
}: {
  machineId: number;
  /** The task page's task; left out, every task of the machine. */
  taskId?: number;
  history: HistoryActions;
}) {
  const search = useFileSearch(machineId, true);
  const startSearch = useStartFileSearch();
  const [opened, setOpened] = useState<FileSearchHit | null>(null);
  const form = useForm<SearchForm>({
    // The schema's ignoreCase has a default; the form always holds a value.
    resolver: zodResolver(formSchema) as unknown as Resolver<SearchForm>,
    defaultValues: { pattern: '', ignoreCase: true },
  });
  const onSubmit = form.handleSubmit((values) =>
    search.start((searchId) =>
      startSearch.mutateAsync({
        machineId,
        request: { searchId, ...values, ...(taskId === undefined ? {} : { taskId }) },
      }),
    ),
  );

  return (
    <div data-testid="file-search">
      <form onSubmit={onSubmit} noValidate className="d-flex flex-wrap gap-2 align-items-end">
        <div className="flex-grow-1">
          <TextField form={form} name="pattern" label={T.searchLabel} placeholder={T.searchPlaceholder} />
        </div>
        <CheckboxField form={form} name="ignoreCase" label={T.ignoreCaseLabel} />
        <div className="mb-3 d-flex gap-2">
          <Button type="submit" disabled={!search.ready || search.running} data-testid="file-search-submit">
            {T.searchButton}
          </Button>
          {search.running && (
            <Button variant="outline-danger" onClick={search.stop} data-testid="file-search-stop">
              {T.stopButton}
            </Button>
          )}
        </div>
      </form>
      <SearchStatus search={search} emptyText={T.noMatches} />
      {search.hits.length > 0 && (
        <WholeTable<FileSearchHit>
          rows={search.hits}
          rowKey={(hit) => `${hit.snapshotId}:${hit.path}`}
          emptyText={T.noMatches}
          aria-label={T.searchLabel}
          data-testid="file-search-results"
          columns={[
            { key: 'path', header: T.columnPath, render: (hit) => <span className="text-break">{hit.path}</span> },
            ...(taskId === undefined
              ? [{ key: 'task', header: T.columnTask, render: (hit: FileSearchHit) => hit.taskName ?? '' }]
              : []),
            { key: 'size', header: T.columnSize, render: sizeText },
            { key: 'modified', header: T.columnModified, render: (hit) => timeText(hit.modifiedAt) },
            { key: 'snapshot', header: T.columnSnapshot, render: (hit) => timeText(hit.snapshotTime) },
            {
              key: 'history',
              header: '',
              render: (hit) => (
                <Button
                  size="sm"
                  variant="outline-primary"
                  onClick={() => setOpened(hit)}
                  {...FileHistoryDialog.preloadProps}
                >
                  {T.historyButton}
                </Button>
              ),
            },
          ]}
        />
      )}
      <FileHistoryDialog machineId={machineId} file={opened} onHide={() => setOpened(null)} actions={history} />
    </div>
  );
}
