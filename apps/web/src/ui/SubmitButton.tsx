import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

export interface SubmitButtonProps {
  /** From useSubmitForm: disables the button and shows a spinner while the form is being sent. */
  submitting: boolean;
  children: ReactNode;
  'data-testid'?: string;
}

/** The submit button of a form on a page (a dialog's is FormModal's): busy with a spinner while it sends. */
export function SubmitButton({ submitting, children, 'data-testid': testId }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={submitting} aria-busy={submitting} data-testid={testId}>
      {submitting && <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />}
      {children}
    </Button>
  );
}
