import { type ReactNode, useId } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import type { DialogSubmission } from './ConfirmDialog';
import { FormModal } from './FormModal';
import { GlobalErrors } from './GlobalErrors';

export interface ConfirmByNameDialogProps {
  show: boolean;
  onHide: () => void;
  title: ReactNode;
  /** Explains what happens and asks for the name; it also labels the input. */
  prompt: ReactNode;
  expectedName: string;
  /** E.g. 'Must complete backup machine name to confirm deletion' (001 §5). */
  mismatchMessage: string;
  confirmLabel: ReactNode;
  variant?: ButtonProps['variant'];
  /**
   * Runs the action; the dialog stays open and undismissable until it settles. The caller closes the
   * dialog (show=false) when the action succeeded, and handles its own errors.
   */
  onConfirm: () => Promise<void>;
  /** Controls shown above the prompt, e.g. the new status of a change-status dialog. */
  before?: ReactNode;
  /** Shown under the field. */
  children?: ReactNode;
  /** Its global errors show under the field (and `children`). */
  submission?: DialogSubmission;
  /** Called once the dialog has fully closed (the typed name is cleared then too). */
  onExited?: () => void;
  animation?: boolean;
  'data-testid'?: string;
}

interface ConfirmFields {
  name: string;
}

/**
 * Confirms a destructive action by having the user type the exact name of what it affects
 * (001 §5, 000 §5). No trimming or case folding: "exact" means exact, and an empty name needs an empty
 * entry.
 */
export function ConfirmByNameDialog({
  show,
  onHide,
  title,
  prompt,
  expectedName,
  mismatchMessage,
  confirmLabel,
  variant = 'danger',
  onConfirm,
  before,
  children,
  submission,
  onExited,
  animation,
  'data-testid': testId = 'confirm-by-name',
}: ConfirmByNameDialogProps) {
  const promptId = useId();
  const fieldId = useId();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmFields>({ defaultValues: { name: '' } });

  const error = errors.name?.message;
  return (
    <FormModal
      show={show}
      onHide={onHide}
      title={title}
      onSubmit={handleSubmit(() => onConfirm())}
      submitting={isSubmitting}
      submitLabel={confirmLabel}
      submitVariant={variant}
      onExited={() => {
        reset();
        submission?.clearErrors();
        onExited?.();
      }}
      animation={animation}
      data-testid={testId}
    >
      {before}
      <div id={promptId} className="mb-2">
        {prompt}
      </div>
      <Form.Control
        id={fieldId}
        type="text"
        autoComplete="off"
        spellCheck={false}
        aria-labelledby={promptId}
        isInvalid={error !== undefined}
        aria-invalid={error !== undefined}
        aria-describedby={error !== undefined ? `${fieldId}-error` : undefined}
        data-testid="confirm-name-input"
        {...register('name', { validate: (value) => value === expectedName || mismatchMessage })}
      />
      <Form.Control.Feedback type="invalid" id={`${fieldId}-error`}>
        {error}
      </Form.Control.Feedback>
      {children}
      {submission && <GlobalErrors messages={submission.globalErrors} />}
    </FormModal>
  );
}
