import type { AgentToServer, ServerToAgent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import type { AgentEventService } from '../agent-events/service.js';
import type { TaskCommandService } from '../task-commands/service.js';
import { createMachineChannelHandlers } from './handlers.js';

const hello: AgentToServer = {
  type: 'hello',
  name: 'server-1',
  osFamily: 'LINUX',
  operatingSystem: 'Debian 12',
  clientVersion: '2.1.0',
  timeZone: 'UTC',
  taskVersions: {},
};

describe("the hello's answers", () => {
  it('sends the task list before looking up the repository, which may make an S3 key first', async () => {
    const sent: string[] = [];
    let repositoryReady: (message: ServerToAgent) => void = () => {};
    const handlers = createMachineChannelHandlers({
      agentEvents: {
        hello: async () => ({
          tasks: { type: 'tasks', tasks: [], timeZone: 'UTC' },
          repository: { passwordSealed: null, storageAccountType: 'S3' },
        }),
      } as unknown as AgentEventService,
      taskCommands: {} as TaskCommandService,
      machine: async () => null,
      repositoryOf: () => new Promise((resolve) => (repositoryReady = resolve)),
      channel: () => ({
        sendToMachine: async (_machineId, message) => {
          sent.push(message.type);
          return true;
        },
        publishToUser: async () => {},
        isOnline: async () => true,
      }),
    });
    const answered = handlers.onAgentEvent({ id: 7, customerId: 1, backupPackageId: 1 }, hello);
    // While the repository is still being made, a task added now is sent after the hello's list, not before it.
    await expect.poll(() => sent).toEqual(['tasks']);
    repositoryReady({ type: 'repository', settings: { repository: 's3:http://s3.test/b/7', password: 'p', env: {} } });
    await answered;
    expect(sent).toEqual(['tasks', 'repository']);
  });
});
