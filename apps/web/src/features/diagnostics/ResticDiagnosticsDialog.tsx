import {
  isCommandResultCode,
  isRealtimeCommandInProgress,
  MESSAGES,
  type RealtimeCommandView,
  realtimeCommandStatus,
  resticCommandLine,
  resultCodeText,
} from '@portal/domain';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Nav from 'react-bootstrap/Nav';
import Spinner from 'react-bootstrap/Spinner';
import TabContainer from 'react-bootstrap/TabContainer';
import TabContent from 'react-bootstrap/TabContent';
import TabPane from 'react-bootstrap/TabPane';
import { DetailTable, StatusBadge, toast } from '../../ui';
import { DeleteCommandDialog, StopCommandDialog } from './CommandDialogs';
import type { DiagnosticsMachine } from './queries';
import { SubmitResticCommandDialog } from './SubmitResticCommandDialog';
import { useLiveCommands } from './useLiveCommands';

const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

const exitCodeText = (code: string | null) =>
  code === null ? '' : isCommandResultCode(code) ? resultCodeText(code) : code;
const timeText = (iso: string | null) => (iso === null ? '' : new Date(iso).toLocaleString());

/** A dialog the diagnostics dialog opens over itself, and the command it is about. */
type Action = { kind: 'submit' } | { kind: 'stop' | 'delete'; command: RealtimeCommandView };

export interface ResticDiagnosticsDialogProps {
  show: boolean;
  machine: DiagnosticsMachine;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Restic diagnostics (001 §2, §4): a tab per command with its command line, times, status and exit code,
 * and its output streaming live over the provider's machine queue while the dialog shows.
 */
export function ResticDiagnosticsDialog({ show, machine, onHide, animation = true }: ResticDiagnosticsDialogProps) {
  const commands = useLiveCommands(machine, show);
  const list = commands.data?.elements ?? [];
  const running = list.some(isRealtimeCommandInProgress);

  // 001 §4: after loading the last tab is selected; a chosen tab stays chosen while it exists.
  const [chosen, setChosen] = useState<string | null>(null);
  const active = list.some((c) => c.commandId === chosen) ? chosen : (list.at(-1)?.commandId ?? null);

  const [action, setAction] = useState<Action | null>(null);
  const [lastAction, setLastAction] = useState<Action | null>(null);
  const open = (next: Action) => {
    setAction(next);
    setLastAction(next);
  };
  const closeAction = () => setAction(null);

  // 001 §8: 'Error in communicating with server.' also when loading commands fails.
  const errorToasted = useRef(0);
  useEffect(() => {
    if (!show || commands.errorUpdatedAt === errorToasted.current) return;
    errorToasted.current = commands.errorUpdatedAt;
    toast.error(MESSAGES.communicationError);
  }, [show, commands.errorUpdatedAt]);

  return (
    <>
      <Modal
        show={show}
        onHide={onHide}
        onExited={() => setChosen(null)}
        size="xl"
        scrollable
        animation={animation}
        aria-labelledby="restic-diagnostics-title"
        data-testid="restic-diagnostics-dialog"
      >
        <Modal.Header closeButton>
          <Modal.Title id="restic-diagnostics-title">{machine.name}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {commands.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label="Loading" />
          ) : list.length === 0 ? (
            <p className="text-muted mb-0" data-testid="no-commands">
              {TEXT.noCommands}
            </p>
          ) : (
            <TabContainer activeKey={active ?? undefined} onSelect={(k) => setChosen(k)}>
              <Nav variant="tabs" role="tablist" className="mb-3">
                {list.map((command) => (
                  <Nav.Item key={command.commandId} className="d-flex align-items-center">
                    <Nav.Link eventKey={command.commandId} role="tab" data-testid="command-tab">
                      {command.baseCommand}
                      {isRealtimeCommandInProgress(command) && (
                        <Spinner
                          animation="border"
                          size="sm"
                          className="ms-2"
                          role="status"
                          aria-label={LABELS.running}
                        />
                      )}
                    </Nav.Link>
                    {!isRealtimeCommandInProgress(command) && (
                      <CloseButton
                        className="ms-1 me-2"
                        aria-label={`${LABELS.deleteIcon} ${command.baseCommand}`}
                        onClick={() => open({ kind: 'delete', command })}
                      />
                    )}
                  </Nav.Item>
                ))}
              </Nav>
              <TabContent>
                {list.map((command) => (
                  <TabPane key={command.commandId} eventKey={command.commandId} role="tabpanel">
                    <CommandDetails command={command} onStop={() => open({ kind: 'stop', command })} />
                  </TabPane>
                ))}
              </TabContent>
            </TabContainer>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            {LABELS.closeButton}
          </Button>
          <Button variant="primary" disabled={running || !commands.isSuccess} onClick={() => open({ kind: 'submit' })}>
            {LABELS.submitButton}
          </Button>
        </Modal.Footer>
      </Modal>
      <SubmitResticCommandDialog
        show={action?.kind === 'submit'}
        machine={machine}
        onHide={closeAction}
        onSubmitted={setChosen}
        animation={animation}
      />
      <StopCommandDialog
        show={action?.kind === 'stop'}
        command={lastAction?.kind === 'stop' ? lastAction.command : null}
        machine={machine}
        onHide={closeAction}
        animation={animation}
      />
      <DeleteCommandDialog
        show={action?.kind === 'delete'}
        command={lastAction?.kind === 'delete' ? lastAction.command : null}
        machine={machine}
        onHide={closeAction}
        animation={animation}
      />
    </>
  );
}

/** One command's tab (001 §2): full command line, times, status badge, exit code, read-only output. */
function CommandDetails({ command, onStop }: { command: RealtimeCommandView; onStop: () => void }) {
  const { status, variant } = realtimeCommandStatus(command.exitCode);
  const output = useRef<HTMLTextAreaElement>(null);
  const lines = command.commandOutput.length;
  // Follow the output as it grows, as a terminal does.
  useEffect(() => {
    if (lines > 0 && output.current) output.current.scrollTop = output.current.scrollHeight;
  }, [lines]);
  const R = LABELS.rows;
  return (
    <>
      <DetailTable
        aria-label={resticCommandLine(command)}
        data-testid="command-details"
        rows={[
          { label: R.commandLine, value: <code>{resticCommandLine(command)}</code> },
          { label: R.timeStarted, value: timeText(command.timeStarted) },
          { label: R.timeFinished, value: timeText(command.timeFinished) },
          { label: R.status, value: <StatusBadge status={status} variant={variant} /> },
          { label: R.exitCode, value: <span data-testid="exit-code">{exitCodeText(command.exitCode)}</span> },
        ]}
      />
      {isRealtimeCommandInProgress(command) && (
        <Button variant="danger" size="sm" className="mt-2" onClick={onStop}>
          {TEXT.stopButton}
        </Button>
      )}
      <Form.Group className="mt-3" controlId={`command-output-${command.commandId}`}>
        <Form.Label>{R.output}</Form.Label>
        <Form.Control
          as="textarea"
          ref={output}
          readOnly
          rows={15}
          className="font-monospace small"
          value={command.commandOutput.join('\n')}
          data-testid="command-output"
        />
      </Form.Group>
    </>
  );
}
