import type { ServerMessage } from '@portal/domain';
import { type ReactNode, useState } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import { FormModal } from './FormModal';
import { GlobalErrors } from './GlobalErrors';

/**
 * The dialog's submission (`useDialogSubmit`): the confirmation dialogs show its global errors under their
 * content and clear them once closed, so each opening starts without the last one's errors.
 */
export interface DialogSubmission {
  globalErrors: readonly ServerMessage[];
  clearErrors: () => void;
}

export interface ConfirmDialogProps {
  show: boolean;
  onHide: () => void;
  title: ReactNode;
  /** The question. */
  children: ReactNode;
  confirmLabel: ReactNode;
  /** The action cannot be confirmed now (the question says why). */
  confirmDisabled?: boolean;
  variant?: ButtonProps['variant'];
  /**
   * Runs the action; the dialog stays open and undismissable until it settles. The caller closes the
   * dialog (show=false) when the action succeeded, and handles its own errors.
   */
  onConfirm: () => Promise<void>;
  /** Its global errors show under the question. */
  submission?: DialogSubmission;
  /** Called once the dialog has fully closed. */
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
  confirmDisabled = false,
  variant = 'danger',
  onConfirm,
  submission,
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
      submitDisabled={confirmDisabled}
      submitVariant={variant}
      onExited={() => {
        submission?.clearErrors();
        onExited?.();
      }}
      animation={animation}
      data-testid={testId}
    >
      {children}
      {submission && <GlobalErrors messages={submission.globalErrors} />}
    </FormModal>
  );
}
