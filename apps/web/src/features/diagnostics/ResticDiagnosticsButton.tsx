import { MESSAGES } from '@portal/domain';
import { useState } from 'react';
import { ReasonButton } from '../../ui';
import type { DiagnosticsMachine } from './queries';
import { ResticDiagnosticsDialog } from './ResticDiagnosticsDialog';

export type { DiagnosticsMachine } from './queries';

/**
 * Opens the restic diagnostics dialog of a machine (001 §2, §4; provider admins); disabled with the server's reason
 * when the customer does not allow provider machine control (issue 29).
 */
export function ResticDiagnosticsButton({
  machine,
  blockedReason = null,
}: {
  machine: DiagnosticsMachine;
  blockedReason?: string | null;
}) {
  const [show, setShow] = useState(false);
  return (
    <>
      <ReasonButton
        variant="outline-secondary"
        reason={blockedReason}
        onClick={() => setShow(true)}
        data-testid="restic-diagnostics"
      >
        {MESSAGES.resticDiagnostics.openButton}
      </ReasonButton>
      <ResticDiagnosticsDialog show={show && blockedReason === null} machine={machine} onHide={() => setShow(false)} />
    </>
  );
}
