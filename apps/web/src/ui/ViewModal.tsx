import { type ReactNode, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface ViewModalProps {
  show: boolean;
  title: ReactNode;
  children: ReactNode;
  /** Asked to close (Close, close icon, backdrop, Escape). */
  onHide: () => void;
  /** The feature's 'Close' text. */
  closeLabel: ReactNode;
  size?: 'sm' | 'lg' | 'xl';
  /** The body scrolls instead of the page (long lists). */
  scrollable?: boolean;
  /** Turned off in tests that do not want to wait for the fade. */
  animation?: boolean;
  'data-testid'?: string;
}

/** A dialog that shows something and has nothing to submit: its title names it, Close or the icon ends it. */
export function ViewModal({ title, children, closeLabel, ...modal }: ViewModalProps) {
  const titleId = useId();
  return (
    <Modal {...modal} aria-labelledby={titleId}>
      <Modal.Header closeButton>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={modal.onHide}>
          {closeLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
