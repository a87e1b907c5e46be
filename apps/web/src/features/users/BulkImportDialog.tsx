import { zodResolver } from '@hookform/resolvers/zod';
import {
  acceptAttribute,
  BULK_USER_IMPORT_EXAMPLE_URL,
  errorMessage,
  MESSAGE_ROUTING,
  MESSAGES,
  type ResponseSummaryCode,
  type ServerMessage,
  USERS_IMPORT_PATH,
  userImportSchema,
  usersImported,
  XLSX_KIND,
} from '@portal/domain';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { CommunicationError, call, visibleMessages } from '../../app/api';
import { applyServerMessages, CheckboxField, FormModal, GlobalErrors, toast } from '../../ui';
import { type ImportErrorKind, ImportErrorSummary } from './ImportErrorSummary';

const TEXT = MESSAGES.userImport;

interface ImportFormValues {
  file: FileList | null;
  skipAlreadyExisting: boolean;
}

/** What a finished import reports (issue #6 contract). */
interface ImportResult {
  imported: number;
  skipped: number;
}

const DEFAULTS: ImportFormValues = { file: null, skipAlreadyExisting: false };

/** The summary codes of a failed import (issue #6 contract, 002 §8.2). */
const SUMMARY_KINDS: Partial<Record<ResponseSummaryCode, ImportErrorKind>> = {
  VALIDATION_FAILED: 'validation',
  PROCESSING_FAILED: 'processing',
};

/**
 * 'Users imported successfully!' when every row was added, the server's own count ('N users imported')
 * when some were skipped as already existing (002 §8.4).
 */
const successText = (result: ImportResult | null) =>
  result && result.skipped > 0 ? usersImported(result.imported) : TEXT.imported;

export interface BulkImportDialogProps {
  show: boolean;
  onHide: () => void;
  /** Users were added (all or some): refresh the users list. */
  onChanged: () => void;
  animation?: boolean;
}

/**
 * Bulk import users (002 §5.3, §8.2): an .xlsx in the example file's format, sent with
 * skipAlreadyExisting. A bad file shows its message on the file field; row errors show the summary of
 * the first five and See all; a network failure clears the chosen file (it may have changed on disk).
 */
export function BulkImportDialog({ show, onHide, onChanged, animation }: BulkImportDialogProps) {
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
  const [summary, setSummary] = useState<{ kind: ImportErrorKind; errors: string[] } | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const form = useForm<ImportFormValues>({
    // The schema reads the FileList as its first file; the payload is sent as multipart below.
    resolver: zodResolver(userImportSchema) as unknown as Resolver<ImportFormValues>,
    defaultValues: DEFAULTS,
  });
  const { isSubmitting, errors } = form.formState;
  const fileField = form.register('file');

  const clearFile = () => {
    if (fileInput.current) fileInput.current.value = '';
    form.setValue('file', null);
  };

  const submit = form.handleSubmit(async (values) => {
    setGlobalErrors([]);
    setSummary(null);
    const payload = userImportSchema.parse(values);
    const body = new FormData();
    body.append('skipAlreadyExisting', String(payload.skipAlreadyExisting));
    body.append('file', payload.file as File);

    let answer: Awaited<ReturnType<typeof call<ImportResult>>>;
    try {
      answer = await call<ImportResult>('POST', USERS_IMPORT_PATH, body);
    } catch (error) {
      if (!(error instanceof CommunicationError)) throw error;
      clearFile();
      form.setError('file', { type: 'server', message: TEXT.fileMayHaveChanged });
      return;
    }

    const { envelope } = answer;
    const visible = visibleMessages(envelope.messages ?? []);
    const global = applyServerMessages(
      { messages: visible },
      {
        setError: form.setError,
        fieldNames: ['file', 'skipAlreadyExisting'],
        globalFieldNames: MESSAGE_ROUTING.userImport.globalFieldNames,
      },
    );
    if (answer.ok) {
      onChanged();
      if (visible.length === 0) {
        toast.success(successText(envelope.result));
        onHide();
      } else {
        toast.warning(TEXT.importedWithErrors);
        setGlobalErrors(global);
      }
      return;
    }
    const kind = SUMMARY_KINDS[envelope.responseSummaryCode];
    // A conflict means the rows without errors were saved (issue #6 contract).
    if (kind === 'processing') onChanged();
    if (kind !== undefined && global.length > 0) {
      setSummary({ kind, errors: global.map((m) => m.message) });
    } else if (visible.length === 0) {
      setGlobalErrors([errorMessage(TEXT.unknownWhileImporting, '', envelope.responseSummaryCode)]);
    } else {
      setGlobalErrors(global);
    }
  });

  const fileError = errors.file?.message;
  return (
    <FormModal
      show={show}
      title={TEXT.dialogTitle}
      onHide={onHide}
      onSubmit={submit}
      submitting={isSubmitting}
      submitLabel={TEXT.importSubmit}
      onExited={() => {
        form.reset(DEFAULTS);
        setGlobalErrors([]);
        setSummary(null);
      }}
      animation={animation}
      data-testid="bulk-import-dialog"
    >
      <p>
        {TEXT.exampleFileHint}{' '}
        <a href={BULK_USER_IMPORT_EXAMPLE_URL} download>
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
      {summary && <ImportErrorSummary kind={summary.kind} errors={summary.errors} animation={animation} />}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
