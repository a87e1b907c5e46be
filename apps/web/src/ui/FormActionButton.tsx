import { type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

export interface FormActionButtonProps {
  /** E.g. 'Test connection'. */
  children: ReactNode;
  /** The action on the form as it stands (typically react-hook-form's `handleSubmit(...)`); it says how it went. */
  run: () => Promise<void>;
  'data-testid'?: string;
}

/** A second action inside a form dialog (Test connection), disabled while it runs. */
export function FormActionButton({ children, run, 'data-testid': testId }: FormActionButtonProps) {
  const [running, setRunning] = useState(false);
  const onClick = async () => {
    setRunning(true);
    try {
      await run();
    } finally {
      setRunning(false);
    }
  };
  return (
    <Form.Group className="mb-3">
      <Button variant="outline-secondary" onClick={() => void onClick()} disabled={running} data-testid={testId}>
        {children}
      </Button>
    </Form.Group>
  );
}
