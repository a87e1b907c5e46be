import { preselectedStatusOption } from '@portal/domain';
import { type ReactNode, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { ConfirmByNameDialog, type ConfirmByNameDialogProps } from './ConfirmByNameDialog';
import { useOnOpen } from './useOnOpen';

export interface ChangeStatusDialogProps<S extends string>
  extends Omit<ConfirmByNameDialogProps, 'before' | 'onConfirm'> {
  /** The statuses the transition table offers from the current one (001 §4, 002 §4.1), in its order. */
  statusOptions: readonly S[];
  statusTexts: Readonly<Record<S, string>>;
  /** Labels the status select, e.g. 'New status'. */
  statusLabel: string;
  /** Shown above the status select, e.g. which customer changes. */
  intro?: ReactNode;
  /** A warning for the chosen status, shown under the select (000 §4: suspending a package). */
  warningFor?: (status: S) => string | null;
  /** Changes to the chosen status (see ConfirmByNameDialog's onConfirm); never called without one. */
  onConfirm: (status: S) => Promise<void>;
}

/**
 * A status change confirmed by typing a name (001 §4, §5; 002 §4.1, §5.4): only the statuses offered, the
 * first preselected at each opening.
 */
export function ChangeStatusDialog<S extends string>({
  statusOptions,
  statusTexts,
  statusLabel,
  intro,
  warningFor,
  onConfirm,
  show,
  variant = 'primary',
  ...confirm
}: ChangeStatusDialogProps<S>) {
  const selectId = useId();
  const first = preselectedStatusOption(statusOptions);
  const [status, setStatus] = useState<S | null>(first);
  useOnOpen(show, () => setStatus(first));
  const warning = status !== null ? (warningFor?.(status) ?? null) : null;
  return (
    <ConfirmByNameDialog
      {...confirm}
      show={show}
      variant={variant}
      before={
        <>
          {intro}
          <Form.Group className="mb-3" controlId={selectId}>
            <Form.Label>{statusLabel}</Form.Label>
            <Form.Select value={status ?? ''} onChange={(event) => setStatus(event.target.value as S)}>
              {statusOptions.map((option) => (
                <option key={option} value={option}>
                  {statusTexts[option]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          {warning && (
            <Alert variant="warning" data-testid="status-change-warning">
              {warning}
            </Alert>
          )}
        </>
      }
      onConfirm={async () => {
        if (status !== null) await onConfirm(status);
      }}
    />
  );
}
