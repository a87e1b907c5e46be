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

/** A command response that changes a command: an output line or its finish. */
export type CommandUpdate = Extract<ReadCommandResponse, { kind: 'outputLine' | 'finished' }>;

/**
 * Command responses applied in order to the loaded commands (001 §4): an output line is appended to its
 * command, a finish sets its time finished and exit code. Each changed command is copied once per call,
 * so a burst of lines costs one copy, not one per line. `missing` says a response named a command that is
 * not among them (e.g. submitted from another window), so the caller reloads the list.
 */
export function applyCommandUpdates(
  commands: Commands,
  updates: readonly CommandUpdate[],
): { commands: Commands; missing: boolean } {
  const changed = new Map<string, RealtimeCommandView>();
  const known = new Map(commands.elements.map((c) => [c.commandId, c]));
  let missing = false;
  for (const update of updates) {
    const original = known.get(update.commandId);
    if (!original) {
      missing = true;
      continue;
    }
    let command = changed.get(update.commandId);
    if (!command) {
      command = { ...original, commandOutput: [...original.commandOutput] };
      changed.set(update.commandId, command);
    }
    if (update.kind === 'outputLine') command.commandOutput.push(update.commandOutputLine);
    else Object.assign(command, { timeFinished: update.timeFinished, exitCode: update.exitCode });
  }
  if (changed.size === 0) return { commands, missing };
  return { commands: { elements: commands.elements.map((c) => changed.get(c.commandId) ?? c) }, missing };
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
