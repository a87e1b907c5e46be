import { type FormEventHandler, type ReactNode, useId } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { TooltipButton } from './TooltipButton';

export interface FormModalProps {
  show: boolean;
  title: ReactNode;
  children: ReactNode;
  /** Asked to close (Cancel, close icon, backdrop, Escape); never called while submitting. */
  onHide: () => void;
  /** The form's submit handler, typically react-hook-form's `handleSubmit(...)`. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  submitLabel: ReactNode;
  submitVariant?: ButtonProps['variant'];
  submitDisabled?: boolean;
  /** A tooltip on the submit button, shown also while it is disabled (e.g. 'No packages to link to'). */
  submitTooltip?: ReactNode;
  cancelLabel?: ReactNode;
  /** Called once the modal has fully closed: reset the form here (001 §4). */
  onExited?: () => void;
  size?: 'sm' | 'lg' | 'xl';
  /** Turned off in tests that do not want to wait for the fade. */
  animation?: boolean;
  'data-testid'?: string;
}

/**
 * A dialog holding one form. While a submission is under way it cannot be dismissed (001 §4, 000 §2):
 * no backdrop click, no Escape, close icon and Cancel disabled; the submit button shows a spinner.
 */
export function FormModal({
  show,
  title,
  children,
  onHide,
  onSubmit,
  submitting,
  submitLabel,
  submitVariant = 'primary',
  submitDisabled = false,
  submitTooltip,
  cancelLabel = 'Cancel',
  onExited,
  size,
  animation = true,
  'data-testid': testId = 'form-modal',
}: FormModalProps) {
  const titleId = useId();
  const hide = () => {
    if (!submitting) onHide();
  };
  const submitProps = {
    variant: submitVariant,
    type: 'submit' as const,
    disabled: submitting || submitDisabled,
    'aria-busy': submitting,
    'data-testid': 'form-modal-submit',
  };
  const submitContent = (
    <>
      {submitting && (
        <Spinner
          as="span"
          animation="border"
          size="sm"
          aria-hidden="true"
          className="me-2"
          data-testid="form-modal-spinner"
        />
      )}
      {submitLabel}
    </>
  );
  return (
    <Modal
      show={show}
      onHide={hide}
      onExited={onExited}
      backdrop={submitting ? 'static' : true}
      keyboard={!submitting}
      size={size}
      animation={animation}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header>
          <Modal.Title id={titleId}>{title}</Modal.Title>
          {/* Our own close icon: Modal.Header's cannot be disabled. */}
          <CloseButton aria-label="Close" disabled={submitting} onClick={hide} />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" type="button" disabled={submitting} onClick={hide}>
            {cancelLabel}
          </Button>
          {submitTooltip === undefined ? (
            <Button {...submitProps}>{submitContent}</Button>
          ) : (
            <TooltipButton tooltip={submitTooltip} {...submitProps}>
              {submitContent}
            </TooltipButton>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
