import {
  acceptAttribute,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  type ResponseSummaryCode,
  ROUTES,
  type UserImportResult,
  userImportSchema,
  usersImported,
  XLSX_KIND,
} from '@portal/domain';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { CheckboxField, type DialogProps, FormDialog, LabelledField, useFormDialog, useOnOpen } from '../../ui';
import { type ImportErrorKind, ImportErrorSummary } from './ImportErrorSummary';
import { IMPORT_PARTLY_SAVED, useImportUsers } from './mutations';

const TEXT = MESSAGES.userImport;

interface ImportFormValues {
  file: FileList | null;
  skipAlreadyExisting: boolean;
}

const DEFAULTS: ImportFormValues = { file: null, skipAlreadyExisting: false };

/** The summary codes of a refused import whose row errors show as a summary (issue #6 contract, 002 §8.2). */
const SUMMARY_KINDS: Partial<Record<ResponseSummaryCode, ImportErrorKind>> = {
  VALIDATION_FAILED: 'validation',
  [IMPORT_PARTLY_SAVED]: 'processing',
};

/**
 * 'Users imported successfully!' when every row was added, the server's own count ('N users imported')
 * when some were skipped as already existing (002 §8.4).
 */
const successText = (result: UserImportResult | null) =>
  result && result.skipped > 0 ? usersImported(result.imported) : TEXT.imported;

export interface BulkImportDialogProps extends DialogProps {}

/**
 * Bulk import users (002 §5.3, §8.2): an .xlsx in the example file's format, sent with
 * skipAlreadyExisting. A bad file shows its message on the file field; row errors show the summary of
 * the first five and See all; a network failure clears the chosen file (it may have changed on disk).
 */
export function BulkImportDialog({ show, onHide, animation }: BulkImportDialogProps) {
  const [summaryKind, setSummaryKind] = useState<ImportErrorKind | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const { form, field, dialog } = useFormDialog({
    show,
    onHide,
    animation,
    // The schema reads the FileList as its first file; the mutation sends the payload as multipart.
    schema: userImportSchema,
    defaults: () => DEFAULTS,
    mutation: useImportUsers(),
    variables: (payload) => {
      // A new import starts without the last one's summary.
      setSummaryKind(null);
      return payload;
    },
    fieldNames: ['file', 'skipAlreadyExisting'],
    routing: MESSAGE_ROUTING.userImport,
    idPrefix: 'import-',
    ...OUTCOME_TEXTS.user.import,
    successText,
    // No answer may mean the file changed on disk while it was sent: ask to choose it again.
    onCommunicationError: () => {
      if (fileInput.current) fileInput.current.value = '';
      form.setValue('file', null);
      form.setError('file', { type: 'server', message: TEXT.fileMayHaveChanged });
    },
    onOutcome: (outcome) => {
      if (outcome.close) onHide();
      // The row errors of a refused import show as its summary rather than as global errors.
      if (outcome.kind === 'rejected' && outcome.fromServer && outcome.globalErrors.length > 0) {
        setSummaryKind(SUMMARY_KINDS[outcome.responseSummaryCode] ?? null);
      }
    },
  });
  // Each opening starts without the last summary.
  useOnOpen(show, () => setSummaryKind(null));
  const fileField = form.register('file');
  return (
    <FormDialog
      // A summary shows the row errors instead of the global errors.
      dialog={summaryKind ? { ...dialog, globalErrors: [] } : dialog}
      title={TEXT.dialogTitle}
      submitLabel={TEXT.importSubmit}
      data-testid="bulk-import-dialog"
    >
      <p>
        {TEXT.exampleFileHint}{' '}
        <a href={ROUTES.users.importExample.build()} download>
          {TEXT.exampleFile}
        </a>
      </p>
      <LabelledField {...field} name="file" label={TEXT.fileLabel}>
        {(invalid) => (
          <Form.Control
            type="file"
            accept={acceptAttribute(XLSX_KIND)}
            {...fileField}
            ref={(element: HTMLInputElement | null) => {
              fileField.ref(element);
              fileInput.current = element;
            }}
            isInvalid={invalid}
          />
        )}
      </LabelledField>
      <CheckboxField {...field} name="skipAlreadyExisting" label={TEXT.skipAlreadyExisting} />
      {summaryKind && (
        <ImportErrorSummary
          kind={summaryKind}
          errors={dialog.globalErrors.map((m) => m.message)}
          animation={animation}
        />
      )}
    </FormDialog>
  );
}
