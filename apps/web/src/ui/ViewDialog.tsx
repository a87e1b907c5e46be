import { type ReactNode, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface ViewDialogProps {
  show: boolean;
  onHide: () => void;
  /** Names the dialog (its accessible name). */
  title: ReactNode;
  children: ReactNode;
  /** A Close button in the footer, with this label; without it (and without `actions`) there is no footer. */
  closeLabel?: ReactNode;
  /** Further footer buttons, after Close. */
  actions?: ReactNode;
  size?: 'sm' | 'lg' | 'xl';
  scrollable?: boolean;
  onExited?: () => void;
  animation?: boolean;
  'data-testid': string;
}

/** A dialog that shows something (a list, a log, a policy) rather than sending a form: title, body, Close. */
export function ViewDialog({
  show,
  onHide,
  title,
  children,
  closeLabel,
  actions,
  size,
  scrollable,
  onExited,
  animation,
  'data-testid': testId,
}: ViewDialogProps) {
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={onExited}
      size={size}
      scrollable={scrollable}
      animation={animation}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <Modal.Header closeButton>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      {(closeLabel !== undefined || actions !== undefined) && (
        <Modal.Footer>
          {closeLabel !== undefined && (
            <Button variant="secondary" onClick={onHide}>
              {closeLabel}
            </Button>
          )}
          {actions}
        </Modal.Footer>
      )}
    </Modal>
  );
}
