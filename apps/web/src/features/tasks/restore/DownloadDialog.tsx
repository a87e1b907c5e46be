import {
  CSRF_FIELD_NAME,
  DOWNLOAD_START_DELAY_MS,
  downloadRequestSchema,
  MESSAGES,
  ROUTES,
  type SnapshotTreeItem,
} from '@portal/domain';
import { type FormEvent, useState } from 'react';
import { csrfToken } from '../../../app/initial-data';
import { type DialogProps, useDialogSubmit } from '../../../ui';
import { type RunRef, useInitiateDownload } from './mutations';
import { ItemsDialog, useChosenItems } from './SnapshotTree';

const TEXT = MESSAGES.restore;

/**
 * The hidden form POST of 002 §7.6: the browser itself receives the zip as a file download (its response is
 * not shown), carrying the CSRF field like every state-changing request.
 */
export function postDownloadForm(action: string): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = action;
  form.hidden = true;
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = CSRF_FIELD_NAME;
  field.value = csrfToken().token;
  form.append(field);
  document.body.append(form);
  form.submit();
  form.remove();
}

export interface DownloadDialogProps extends DialogProps {
  run: RunRef;
  /** Chosen when the dialog opens (a file's history: that file). */
  initialItems?: readonly SnapshotTreeItem[];
}

/**
 * Download (002 §2.6, §5.8, §7.6): everything, or the items chosen in the snapshot's tree ('At least one item
 * must be selected.'). The initiate call answers a downloadId; 'Download starting shortly....' is shown and the
 * form POST follows 8 s later (002 §9), after the dialog has closed.
 */
export function DownloadDialog({ show, run, onHide, animation, initialItems }: DownloadDialogProps) {
  const [downloadAll, setDownloadAll] = useState(false);
  const [itemsError, setItemsError] = useState<string | null>(null);
  const choice = useChosenItems(() => setItemsError(null), initialItems);
  const [submitting, setSubmitting] = useState(false);
  const submission = useDialogSubmit({
    mutation: useInitiateDownload(),
    successText: MESSAGES.task.downloadStarting,
    partialText: MESSAGES.task.downloadStarting,
    unknownErrorText: MESSAGES.task.unknownWhileInitiatingDownload,
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const request = {
      downloadAllItems: downloadAll,
      backedUpItemsToDownload: downloadAll ? [] : choice.items,
    };
    const parsed = downloadRequestSchema.safeParse(request);
    if (!parsed.success) {
      setItemsError(parsed.error.issues[0]?.message ?? MESSAGES.task.downloadItemsRequired);
      return;
    }
    setSubmitting(true);
    try {
      const outcome = await submission.submit({ run, request });
      if (!outcome.applied || !outcome.result) return;
      const action = ROUTES.restore.download.build({ ...run, download: outcome.result.downloadId });
      setTimeout(() => postDownloadForm(action), DOWNLOAD_START_DELAY_MS);
      onHide();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <ItemsDialog
      show={show}
      title={TEXT.downloadTitle}
      onHide={onHide}
      onSubmit={onSubmit}
      submitting={submitting}
      submitLabel={TEXT.downloadButton}
      onExited={() => {
        setDownloadAll(false);
        setItemsError(null);
      }}
      animation={animation}
      data-testid="download-dialog"
      run={run}
      allLabel={TEXT.downloadAll}
      all={downloadAll}
      onAllChange={(all) => {
        setDownloadAll(all);
        setItemsError(null);
      }}
      choice={choice}
      itemsError={itemsError}
      submission={submission}
    />
  );
}
