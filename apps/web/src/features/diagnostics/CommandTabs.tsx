import {
  isCommandResultCode,
  isRcloneResultCode,
  isRealtimeCommandInProgress,
  MESSAGES,
  type RealtimeCommandView,
  realtimeCommandStatus,
  resultCodeText,
} from '@portal/domain';
import { type ReactNode, useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import Nav from 'react-bootstrap/Nav';
import Spinner from 'react-bootstrap/Spinner';
import TabContainer from 'react-bootstrap/TabContainer';
import TabContent from 'react-bootstrap/TabContent';
import TabPane from 'react-bootstrap/TabPane';
import { DetailTable, localDateTime, StatusBadge } from '../../ui';

const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

const exitCodeText = (code: string | null) =>
  code === null ? '' : isCommandResultCode(code) || isRcloneResultCode(code) ? resultCodeText(code) : code;
const timeText = (iso: string | null) => (iso === null ? '' : localDateTime(iso));

export interface CommandTabsProps<C extends RealtimeCommandView> {
  commands: readonly C[];
  /** The chosen tab; the last command's when none (001 §4: after loading the last tab is selected). */
  active: string | null;
  onSelect: (commandId: string | null) => void;
  onStop: (command: C) => void;
  onDelete: (command: C) => void;
  /** The command's full line ('restic …' or 'rclone …'). */
  commandLine: (command: C) => string;
  /** A tab's title. */
  tabLabel: (command: C) => ReactNode;
}

/**
 * Realtime commands as tabs (001 §2, §4): a spinner on a running one's tab, a delete icon on a finished
 * one's, and per tab its command line, times, status badge, exit code, Stop while it runs and its output
 * following as it grows. Restic diagnostics and migration command sequences show them alike.
 */
export function CommandTabs<C extends RealtimeCommandView>({
  commands,
  active,
  onSelect,
  onStop,
  onDelete,
  commandLine,
  tabLabel,
}: CommandTabsProps<C>) {
  return (
    <TabContainer activeKey={active ?? undefined} onSelect={(k) => onSelect(k)}>
      <Nav variant="tabs" role="tablist" className="mb-3">
        {commands.map((command) => (
          <Nav.Item key={command.commandId} role="presentation">
            <Nav.Link eventKey={command.commandId} role="tab" data-testid="command-tab">
              {tabLabel(command)}
              {isRealtimeCommandInProgress(command) && (
                <Spinner animation="border" size="sm" className="ms-2" role="status" aria-label={LABELS.running} />
              )}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <TabContent>
        {commands.map((command) => (
          <TabPane key={command.commandId} eventKey={command.commandId} role="tabpanel">
            {/* The delete icon heads the tab's panel: a tab list may hold only tabs (issue 31, axe). */}
            {!isRealtimeCommandInProgress(command) && (
              <div className="d-flex justify-content-end">
                <CloseButton
                  aria-label={`${LABELS.deleteIcon} ${command.baseCommand}`}
                  onClick={() => onDelete(command)}
                />
              </div>
            )}
            <CommandDetails command={command} line={commandLine(command)} onStop={() => onStop(command)} />
          </TabPane>
        ))}
      </TabContent>
    </TabContainer>
  );
}

/** One command's tab (001 §2): full command line, times, status badge, exit code, read-only output. */
function CommandDetails({ command, line, onStop }: { command: RealtimeCommandView; line: string; onStop: () => void }) {
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
        aria-label={line}
        data-testid="command-details"
        rows={[
          { label: R.commandLine, value: <code>{line}</code> },
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
