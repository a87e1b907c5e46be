import { type Actor, machineAudience, mayCommandMachine, type TaskDefinition } from '@portal/domain';
import { forbidden, notFound } from '../../http/errors.js';
import { presentTaskDefinition } from './present.js';
import type { TaskDefinitionRepo } from './repo.js';

interface CommandableMachine {
  customerId: number;
  assignedUserId: number | null;
  parentResellerCustomerId: number | null;
  allowProviderMachineControl: boolean;
}

/**
 * The stored definition a task's edit dialog starts from. Same rule as the edit itself: whoever may
 * command the machine; a machine the caller cannot see, or another machine's task, is "not found".
 */
export function createTaskDefinitionService(deps: {
  repo: TaskDefinitionRepo;
  machine(machineId: number): Promise<CommandableMachine | null>;
}) {
  return {
    async definition(actor: Actor, machineId: number, taskId: number): Promise<TaskDefinition> {
      const machine = await deps.machine(machineId);
      if (!machine || machineAudience(actor, machine) === null) throw notFound();
      if (!mayCommandMachine(actor, machine)) throw forbidden();
      const row = await deps.repo.definition(machineId, taskId);
      if (!row) throw notFound();
      return presentTaskDefinition(row);
    },
  };
}

export type TaskDefinitionService = ReturnType<typeof createTaskDefinitionService>;
