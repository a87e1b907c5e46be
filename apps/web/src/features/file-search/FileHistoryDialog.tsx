import { FILE_SEARCH_TEXTS, type FileSearchHit, type SnapshotTreeItem } from '@portal/domain';
import { useEffect } from 'react';
import { ViewModal, WholeTable } from '../../ui';
import { DownloadButton, RestoreButton } from '../tasks/restore/RunDataButtons';
import { useStartFileHistory } from './mutations';
import { type HistoryActions, SearchStatus, sizeText, timeText } from './SearchStatus';
import { useFileSearch } from './useFileSearch';

const T = FILE_SEARCH_TEXTS;

/** The file as the download and restore dialogs choose it. */
const chosenOf = (hit: FileSearchHit): SnapshotTreeItem[] =>
  hit.type === 'OTHER'
    ? []
    : [
        {
          path: hit.path,
          name: hit.path.split('/').pop() ?? hit.path,
          type: hit.type === 'DIRECTORY' ? 'DIRECTORY' : 'FILE',
          size: hit.size ?? 0,
        },
      ];

/**
 * A file's history (issue 31): every snapshot of its task that holds its path, newest first, with size and time,
 * each with the download and restore dialogs of the run that made it, the file chosen.
 */
export function FileHistoryDialog({
  machineId,
  file,
  onHide,
  actions,
}: {
  machineId: number;
  file: FileSearchHit | null;
  onHide: () => void;
  actions: HistoryActions;
}) {
  const search = useFileSearch(machineId, file !== null);
  const startHistory = useStartFileHistory();
  const { ready, start } = search;
  const path = file?.path ?? null;
  const taskId = file?.taskId ?? null;

  // Each opening (once its queue listens) asks for the history of its file.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one request per opened file, not per render
  useEffect(() => {
    if (!ready || path === null || taskId === null) return;
    void start((searchId) => startHistory.mutateAsync({ machineId, taskId, request: { searchId, path } }));
  }, [ready, path, taskId, machineId]);

  return (
    <ViewModal
      show={file !== null}
      onHide={() => {
        if (search.running) search.stop();
        search.reset();
        onHide();
      }}
      title={T.historyTitle(path ?? '')}
      closeLabel={T.close}
      size="xl"
      scrollable
      data-testid="file-history"
    >
      <SearchStatus search={search} emptyText={T.historyEmpty} />
      {search.hits.length > 0 && file && (
        <WholeTable<FileSearchHit>
          rows={search.hits}
          rowKey={(hit) => hit.snapshotId}
          emptyText={T.historyEmpty}
          aria-label={T.historyTitle(file.path)}
          data-testid="file-history-table"
          columns={[
            { key: 'snapshot', header: T.columnSnapshot, render: (hit) => timeText(hit.snapshotTime) },
            { key: 'size', header: T.columnSize, render: sizeText },
            { key: 'modified', header: T.columnModified, render: (hit) => timeText(hit.modifiedAt) },
            {
              key: 'actions',
              header: '',
              render: (hit) =>
                hit.runId === null ? (
                  <span className="small text-muted">{T.noRun}</span>
                ) : (
                  <div className="d-flex gap-1 flex-wrap">
                    <DownloadButton
                      machineId={machineId}
                      taskId={hit.taskId}
                      runId={hit.runId}
                      disabled={actions.downloadDisabled}
                      initialItems={chosenOf(hit)}
                    />
                    {actions.restore && (
                      <RestoreButton
                        machineId={machineId}
                        taskId={hit.taskId}
                        runId={hit.runId}
                        disabled={actions.downloadDisabled}
                        osFamily={actions.osFamily}
                        onStarted={() => actions.onRestoreStarted?.()}
                        initialItems={chosenOf(hit)}
                      />
                    )}
                  </div>
                ),
            },
          ]}
        />
      )}
    </ViewModal>
  );
}
