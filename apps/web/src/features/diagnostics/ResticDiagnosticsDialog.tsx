import { isRealtimeCommandInProgress, MESSAGES, type RealtimeCommandView, resticCommandLine } from '@portal/domain';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { type DialogProps, toast } from '../../ui';
import { CommandConfirmations, commandDialogOf } from './CommandDialogs';
import { CommandTabs } from './CommandTabs';
import { useDeleteResticCommand, useStopResticCommand } from './mutations';
import type { DiagnosticsMachine } from './queries';
import { SubmitResticCommandDialog } from './SubmitResticCommandDialog';
import { useLiveCommands } from './useLiveCommands';

const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

/** A dialog the diagnostics dialog opens over itself, and the command it is about. */
type Action = { kind: 'submit' } | { kind: 'stop' | 'delete'; command: RealtimeCommandView };

export interface ResticDiagnosticsDialogProps extends DialogProps {
  machine: DiagnosticsMachine;
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
  const commandMutations = { stop: useStopResticCommand(machine), delete: useDeleteResticCommand(machine) };

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
            <CommandTabs
              commands={list}
              active={active}
              onSelect={setChosen}
              onStop={(command) => open({ kind: 'stop', command })}
              onDelete={(command) => open({ kind: 'delete', command })}
              commandLine={resticCommandLine}
              tabLabel={(command) => command.baseCommand}
            />
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
      <CommandConfirmations
        shown={commandDialogOf(action)?.kind ?? null}
        last={commandDialogOf(lastAction)}
        mutations={commandMutations}
        onHide={closeAction}
        animation={animation}
      />
    </>
  );
}
