/** `portal-agent status`: the link, the last connection, the tasks held and their next runs, the queue. Never the token. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nextRunAfter } from '@portal/domain';
import { type AgentConfig, readConnectionState, readStoredTasks } from './config.js';

/** Events waiting in the outbox (its lines; a torn last line counts as none). */
export function queuedEventCount(stateDir: string): number {
  try {
    return readFileSync(join(stateDir, 'outbox.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim().startsWith('{') && line.trim().endsWith('}')).length;
  } catch {
    return 0;
  }
}

export function statusText(configPath: string, config: AgentConfig, now: Date = new Date()): string {
  const lines: string[] = [];
  lines.push(`Config:        ${configPath}`);
  lines.push(`Server:        ${config.server}`);
  lines.push(`Machine id:    ${config.machineId}`);
  const state = readConnectionState(config.stateDir);
  if (!state) {
    lines.push('Connection:    never started (run `portal-agent run`)');
  } else {
    lines.push(
      `Connection:    ${state.connected ? 'connected' : 'not connected'}` +
        (state.lastConnectedAt ? `, last connected ${state.lastConnectedAt}` : ', never connected'),
    );
    if (state.lastError && !state.connected) lines.push(`Last error:    ${state.lastError}`);
  }
  const stored = readStoredTasks(config.stateDir);
  if (!stored || stored.tasks.length === 0) {
    lines.push('Tasks:         none received yet');
  } else {
    lines.push(`Tasks:         ${stored.tasks.length} (time zone ${stored.timeZone})`);
    for (const task of stored.tasks) {
      let next: string;
      if (task.status !== 'ACTIVE') next = task.status.toLowerCase();
      else if (!task.runnable) next = 'stopped (machine, package or customer)';
      else {
        try {
          next = nextRunAfter(task.scheduleCron, now, stored.timeZone)?.toISOString() ?? 'never';
        } catch {
          next = `unusable schedule '${task.scheduleCron}'`;
        }
      }
      lines.push(`  #${task.id} ${task.name} [${task.scheduleCron}] next run: ${next}`);
    }
  }
  lines.push(`Queued events: ${queuedEventCount(config.stateDir)}`);
  return `${lines.join('\n')}\n`;
}
