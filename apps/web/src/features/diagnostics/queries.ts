import { type Elements, type RealtimeCommandView, ROUTES } from '@portal/domain';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';
import type { CommandUpdate } from '../../app/useLiveOutput';

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

type Commands = Elements<RealtimeCommandView>;

/**
 * GET .../realtimecommands (001 §7): the machine's commands, oldest first, read from result.elements.
 * What the list shows already may be newer than what the server read (lines heard while it answered):
 * each command keeps the longer of the two outputs, both being the first lines of the same numbered output,
 * and a finish once heard.
 */
export function useRealtimeCommands(machine: DiagnosticsMachine, enabled: boolean) {
  const client = useQueryClient();
  const key = diagnosticsKeys.commands(machine.id);
  return useQuery({
    queryKey: key,
    queryFn: async () =>
      keepHeard(
        await getResult(routeCall(ROUTES.realtimeCommands.list, commandsPath(machine))),
        client.getQueryData<Commands>(key),
      ),
    enabled,
  });
}

function keepHeard(loaded: Commands, shown: Commands | undefined): Commands {
  if (!shown) return loaded;
  const heard = new Map(shown.elements.map((c) => [c.commandId, c]));
  return {
    elements: loaded.elements.map((command) => {
      const known = heard.get(command.commandId);
      if (!known) return command;
      const longer = known.commandOutput.length > command.commandOutput.length;
      const finished = command.exitCode === null && known.exitCode !== null;
      if (!longer && !finished) return command;
      return {
        ...command,
        ...(longer && { commandOutput: known.commandOutput }),
        ...(finished && { timeFinished: known.timeFinished, exitCode: known.exitCode }),
      };
    }),
  };
}

const lineNumberOf = (update: CommandUpdate) => (update.kind === 'outputLine' ? update.lineNumber : 0);

/**
 * Command responses applied to the loaded commands (001 §4), lines in the order of their numbers: a line
 * numbered right after a command's last is appended to it, a line it has already is skipped, and a finish
 * sets its time finished and exit code. What cannot be applied is `held`: a line after a missing one, and
 * anything of a command not in the list (e.g. submitted from another window); the caller loads the list
 * again and applies them then. Each changed command is copied once per call, so a burst of lines costs one
 * copy, not one per line.
 */
export function applyCommandUpdates<C extends RealtimeCommandView>(
  commands: Elements<C>,
  updates: readonly CommandUpdate[],
): { commands: Elements<C>; held: CommandUpdate[] } {
  const changed = new Map<string, C>();
  const known = new Map(commands.elements.map((c) => [c.commandId, c]));
  const held: CommandUpdate[] = [];
  for (const update of [...updates].sort((a, b) => lineNumberOf(a) - lineNumberOf(b))) {
    const original = known.get(update.commandId);
    if (!original) {
      held.push(update);
      continue;
    }
    const command = changed.get(update.commandId) ?? { ...original, commandOutput: [...original.commandOutput] };
    if (update.kind === 'finished') {
      Object.assign(command, { timeFinished: update.timeFinished, exitCode: update.exitCode });
    } else if (update.lineNumber === command.commandOutput.length + 1) {
      command.commandOutput.push(update.commandOutputLine);
    } else {
      if (update.lineNumber > command.commandOutput.length) held.push(update);
      continue;
    }
    changed.set(update.commandId, command);
  }
  if (changed.size === 0) return { commands, held };
  return { commands: { elements: commands.elements.map((c) => changed.get(c.commandId) ?? c) }, held };
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
