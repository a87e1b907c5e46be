import { MESSAGES } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { DiagnosticsMachine } from './queries';
import { ResticDiagnosticsDialog } from './ResticDiagnosticsDialog';

export type { DiagnosticsMachine } from './queries';

/** Opens the restic diagnostics dialog of a machine (001 §2, §4; provider admins). */
export function ResticDiagnosticsButton({ machine }: { machine: DiagnosticsMachine }) {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button variant="outline-secondary" onClick={() => setShow(true)}>
        {MESSAGES.resticDiagnostics.openButton}
      </Button>
      <ResticDiagnosticsDialog show={show} machine={machine} onHide={() => setShow(false)} />
    </>
  );
}
