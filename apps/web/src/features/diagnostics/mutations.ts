import { type RealtimeCommandView, type ResticCommandForm, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { commandsPath, type DiagnosticsMachine, diagnosticsKeys, putCommand, removeCommand } from './queries';

const refreshCommands = (machine: DiagnosticsMachine) => [
  { queryKey: diagnosticsKeys.commands(machine.id), afterMs: 0 },
];

/** PUT .../realtimecommands (001 §7): answers the command, which joins the dialog's tabs at once. */
export const useSubmitResticCommand = (machine: DiagnosticsMachine) =>
  useApiMutation({
    request: (body: ResticCommandForm) => call(ROUTES.realtimeCommands.submit, commandsPath(machine), body),
    onApplied: (answer, _body, client) => {
      const command: RealtimeCommandView | null = answer.envelope.result;
      if (command) putCommand(client, machine.id, command);
    },
    // The live channel carries what follows; the list is read again only if the answer had no command.
    refreshes: (_body, answer) => (answer.envelope.result ? [] : refreshCommands(machine)),
  });

/** PUT .../realtimecommands/stop (001 §7): the agent stops it; its finish arrives over the live channel. */
export const useStopResticCommand = (machine: DiagnosticsMachine) =>
  useApiMutation({
    request: (commandId: string) => call(ROUTES.realtimeCommands.stop, commandsPath(machine), { commandId }),
    refreshes: () => [],
  });

/** PUT .../realtimecommands/delete (001 §7). */
export const useDeleteResticCommand = (machine: DiagnosticsMachine) =>
  useApiMutation({
    request: (commandId: string) => call(ROUTES.realtimeCommands.remove, commandsPath(machine), { commandId }),
    onApplied: (_answer, commandId, client) => removeCommand(client, machine.id, commandId),
    refreshes: () => refreshCommands(machine),
  });
