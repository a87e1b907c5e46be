import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AuthService } from '../auth/service.js';
import { type BusMessage, createInProcessBus, type DashboardMachine } from './bus.js';
import { createLiveChannel } from './channel.js';
import type { PresenceRepo } from './repo.js';
import { eventually } from './testing.js';

/** The live dashboard's batches of changed machines when the database lends no connection in time (issue 33). */
describe('dashboard changes', () => {
  it('keeps the machines of a batch whose look-up found the database out of reach, and tells them in the next', async () => {
    const bus = createInProcessBus();
    const told: number[][] = [];
    bus.subscribe((message: BusMessage) => {
      if (message.kind === 'dashboard') told.push(message.machines.map((m) => m.id));
    });
    let lookups = 0;
    const live = createLiveChannel({
      auth: {} as AuthService,
      presence: {} as PresenceRepo,
      machine: async () => null,
      async machineVisibilities(ids): Promise<DashboardMachine[]> {
        lookups += 1;
        if (lookups === 1) {
          throw Object.assign(new Error('timeout exceeded when trying to connect'), { code: undefined });
        }
        return ids.map((id) => ({ id, customerId: 1, assignedUserId: null, parentResellerCustomerId: null }));
      },
      bus,
      options: { dashboardBatchMs: 10 },
      log: pino({ level: 'silent' }),
    });
    try {
      live.machinesChanged([1, 2, 3]);
      await eventually(() => told.length > 0);
      expect(lookups).toBe(2);
      expect(told).toEqual([[1, 2, 3]]);
    } finally {
      await live.close();
    }
  });
});
