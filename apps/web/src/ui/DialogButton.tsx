import { type ReactNode, useState } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import type { DialogProps } from './DialogProps';

export interface DialogButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  children: ReactNode;
  /** The dialog the button opens, given whether it shows and how it closes. */
  dialog: (open: Pick<DialogProps, 'show' | 'onHide'>) => ReactNode;
}

/** A button opening its own dialog: the dialog's open state lives with the button, not the page. */
export function DialogButton({ dialog, children, ...buttonProps }: DialogButtonProps) {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button {...buttonProps} onClick={() => setShow(true)}>
        {children}
      </Button>
      {dialog({ show, onHide: () => setShow(false) })}
    </>
  );
}
