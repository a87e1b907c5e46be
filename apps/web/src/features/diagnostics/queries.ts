import { type Elements, type ReadCommandResponse, type RealtimeCommandView, ROUTES } from '@portal/domain';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

/** The machine in the path of the realtime command calls (001 §7). */
export interface DiagnosticsMachine {
  id: number;
  name: string;
  customerId: number;
  backupPackageId: number;
}

export const diagnosticsKeys = {
  all: ['diagnostics'] as const,
  commands: (machineId: number) => [...diagnosticsKeys.all, 'commands', machineId] as const,
};

export const commandsPath = (machine: DiagnosticsMachine) => ({
  customerId: machine.customerId,
  packageId: machine.backupPackageId,
  machineId: machine.id,
});

/** GET .../realtimecommands (001 §7): the machine's commands, oldest first, read from result.elements. */
export function useRealtimeCommands(machine: DiagnosticsMachine, enabled: boolean) {
  return useQuery({
    queryKey: diagnosticsKeys.commands(machine.id),
    queryFn: () => getResult(routeCall(ROUTES.realtimeCommands.list, commandsPath(machine))),
    enabled,
  });
}

type Commands = Elements<RealtimeCommandView>;

/**
 * A command response applied to the loaded commands (001 §4): an output line is appended to its command,
 * a finish sets its time finished and exit code. Answers null when the command is not among them (e.g.
 * submitted from another window), so the caller reloads the list.
 */
export function applyCommandResponse(
  commands: Commands,
  response: Extract<ReadCommandResponse, { kind: 'outputLine' | 'finished' }>,
): Commands | null {
  const index = commands.elements.findIndex((c) => c.commandId === response.commandId);
  const command = commands.elements[index];
  if (!command) return null;
  const changed: RealtimeCommandView =
    response.kind === 'outputLine'
      ? { ...command, commandOutput: [...command.commandOutput, response.commandOutputLine] }
      : { ...command, timeFinished: response.timeFinished, exitCode: response.exitCode };
  return { elements: commands.elements.map((c, i) => (i === index ? changed : c)) };
}

/** Puts a command the server answered into the list (after a submission), or replaces it there. */
export function putCommand(client: QueryClient, machineId: number, command: RealtimeCommandView): void {
  client.setQueryData<Commands>(diagnosticsKeys.commands(machineId), (current) => {
    if (!current) return current;
    const others = current.elements.filter((c) => c.commandId !== command.commandId);
    return { elements: [...others, command] };
  });
}

/** Takes a deleted command out of the list at once (its tab closes before the list is read again). */
export function removeCommand(client: QueryClient, machineId: number, commandId: string): void {
  client.setQueryData<Commands>(diagnosticsKeys.commands(machineId), (current) =>
    current ? { elements: current.elements.filter((c) => c.commandId !== commandId) } : current,
  );
}
