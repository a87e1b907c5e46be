import { zodResolver } from '@hookform/resolvers/zod';
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
import { type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, type DialogProps, FormModal, GlobalErrors, useDialogSubmit } from '../../ui';
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
  const form = useForm<ImportFormValues>({
    // The schema reads the FileList as its first file; the mutation sends the payload as multipart.
    resolver: zodResolver(userImportSchema) as unknown as Resolver<ImportFormValues>,
    defaultValues: DEFAULTS,
  });
  const { isSubmitting, errors } = form.formState;
  const fileField = form.register('file');

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useImportUsers(),
    ...OUTCOME_TEXTS.user.import,
    successText,
    form: {
      setError: form.setError,
      fieldNames: ['file', 'skipAlreadyExisting'],
      globalFieldNames: MESSAGE_ROUTING.userImport.globalFieldNames,
    },
    // No answer may mean the file changed on disk while it was sent: ask to choose it again.
    onCommunicationError: () => {
      if (fileInput.current) fileInput.current.value = '';
      form.setValue('file', null);
      form.setError('file', { type: 'server', message: TEXT.fileMayHaveChanged });
    },
  });

  const importUsers = form.handleSubmit(async (values) => {
    setSummaryKind(null);
    const outcome = await submit(userImportSchema.parse(values));
    if (outcome.close) onHide();
    // The row errors of a refused import show as its summary rather than as global errors.
    if (outcome.kind === 'rejected' && outcome.fromServer && outcome.globalErrors.length > 0) {
      setSummaryKind(SUMMARY_KINDS[outcome.responseSummaryCode] ?? null);
    }
  });

  const fileError = errors.file?.message;
  return (
    <FormModal
      show={show}
      title={TEXT.dialogTitle}
      onHide={onHide}
      onSubmit={importUsers}
      submitting={isSubmitting}
      submitLabel={TEXT.importSubmit}
      onExited={() => {
        form.reset(DEFAULTS);
        clearErrors();
        setSummaryKind(null);
      }}
      animation={animation}
      data-testid="bulk-import-dialog"
    >
      <p>
        {TEXT.exampleFileHint}{' '}
        <a href={ROUTES.users.importExample.build()} download>
          {TEXT.exampleFile}
        </a>
      </p>
      <Form.Group className="mb-3" controlId="import-file">
        <Form.Label>{TEXT.fileLabel}</Form.Label>
        <Form.Control
          type="file"
          accept={acceptAttribute(XLSX_KIND)}
          {...fileField}
          ref={(element: HTMLInputElement | null) => {
            fileField.ref(element);
            fileInput.current = element;
          }}
          isInvalid={fileError !== undefined}
        />
        <Form.Control.Feedback type="invalid">{fileError}</Form.Control.Feedback>
      </Form.Group>
      <CheckboxField form={form} idPrefix="import-" name="skipAlreadyExisting" label={TEXT.skipAlreadyExisting} />
      {summaryKind ? (
        <ImportErrorSummary kind={summaryKind} errors={globalErrors.map((m) => m.message)} animation={animation} />
      ) : (
        <GlobalErrors messages={globalErrors} />
      )}
    </FormModal>
  );
}
