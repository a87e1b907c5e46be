import { type ReactNode, useState } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import { FormModal } from './FormModal';

export interface ConfirmDialogProps {
  show: boolean;
  onHide: () => void;
  title: ReactNode;
  /** The question, and anything shown under it (e.g. <GlobalErrors/> with the server's messages). */
  children: ReactNode;
  confirmLabel: ReactNode;
  variant?: ButtonProps['variant'];
  /**
   * Runs the action; the dialog stays open and undismissable until it settles. The caller closes the
   * dialog (show=false) when the action succeeded, and handles its own errors.
   */
  onConfirm: () => Promise<void>;
  /** Called once the dialog has fully closed: clear the caller's messages here. */
  onExited?: () => void;
  animation?: boolean;
  'data-testid'?: string;
}

/** A yes/no confirmation of one action (e.g. delete user, unlink user), not dismissable while it runs. */
export function ConfirmDialog({
  show,
  onHide,
  title,
  children,
  confirmLabel,
  variant = 'danger',
  onConfirm,
  onExited,
  animation,
  'data-testid': testId = 'confirm-dialog',
}: ConfirmDialogProps) {
  const [submitting, setSubmitting] = useState(false);
  return (
    <FormModal
      show={show}
      onHide={onHide}
      title={title}
      onSubmit={async (event) => {
        event.preventDefault();
        if (submitting) return;
        setSubmitting(true);
        try {
          await onConfirm();
        } finally {
          setSubmitting(false);
        }
      }}
      submitting={submitting}
      submitLabel={confirmLabel}
      submitVariant={variant}
      onExited={onExited}
      animation={animation}
      data-testid={testId}
    >
      {children}
    </FormModal>
  );
}
