import { MESSAGES, moreErrors, USER_IMPORT_ERRORS_SHOWN } from '@portal/domain';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { ViewModal } from '../../ui';

const TEXT = MESSAGES.userImport;

/** Which summary of 002 §8.2: nothing saved (bad request) or some rows not saved (conflict). */
export type ImportErrorKind = 'validation' | 'processing';

const KIND_TEXTS: Record<ImportErrorKind, { summary: string; dialogTitle: string }> = {
  validation: { summary: TEXT.noneImported, dialogTitle: TEXT.validationErrorsTitle },
  processing: { summary: TEXT.notAllImported, dialogTitle: TEXT.importErrorsTitle },
};

export interface ImportErrorSummaryProps {
  kind: ImportErrorKind;
  errors: readonly string[];
  animation?: boolean;
}

function ErrorList({ errors }: { errors: readonly string[] }) {
  return (
    <ul className="mb-0 ps-3">
      {errors.map((error, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same text may repeat; position is the identity
        <li key={index}>{error}</li>
      ))}
    </ul>
  );
}

/**
 * The import's error summary (002 §8.2): its heading, the first five errors, then 'N more error(s)'
 * with a See all link opening every error in a dialog titled 'Validation errors' or 'Import errors'.
 */
export function ImportErrorSummary({ kind, errors, animation }: ImportErrorSummaryProps) {
  const [showAll, setShowAll] = useState(false);
  const texts = KIND_TEXTS[kind];
  const hidden = errors.length - USER_IMPORT_ERRORS_SHOWN;
  return (
    <Alert variant="danger" className="mt-3 mb-0 py-2" data-testid="import-errors">
      <div className="fw-semibold">{texts.summary}</div>
      <ErrorList errors={errors.slice(0, USER_IMPORT_ERRORS_SHOWN)} />
      {hidden > 0 && (
        <div className="mt-1">
          {moreErrors(hidden)}{' '}
          <Button variant="link" className="p-0 align-baseline" onClick={() => setShowAll(true)}>
            {TEXT.seeAll}
          </Button>
        </div>
      )}
      <ViewModal
        show={showAll}
        onHide={() => setShowAll(false)}
        title={texts.dialogTitle}
        closeLabel={TEXT.close}
        scrollable
        animation={animation}
        data-testid="import-errors-dialog"
      >
        <ErrorList errors={errors} />
      </ViewModal>
    </Alert>
  );
}
