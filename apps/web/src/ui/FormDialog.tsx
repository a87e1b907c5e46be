import type { ReactNode } from 'react';
import { FormModal, type FormModalProps } from './FormModal';
import { GlobalErrors } from './GlobalErrors';
import type { FormDialogState } from './useFormDialog';

export interface FormDialogProps extends Omit<FormModalProps, keyof FormDialogState | 'children'> {
  /** From useFormDialog. */
  dialog: FormDialogState;
  children: ReactNode;
}

/** A form dialog's frame (FormModal) over useFormDialog: its fields, then the global errors. */
export function FormDialog({ dialog: { globalErrors, ...modal }, children, ...props }: FormDialogProps) {
  return (
    <FormModal {...modal} {...props}>
      {children}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
