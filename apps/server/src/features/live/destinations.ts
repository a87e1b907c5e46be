import { DASHBOARD_TOPICS, ID_MAX, MACHINE_CHANNEL_COMMANDS, type MachineChannelCommand } from '@portal/domain';
import type { Side } from './bus.js';

/** What a browser destination names, once read. */
export type BrowserSubscription =
  | { kind: 'machine'; machineId: number }
  | { kind: 'migration'; migrationId: number }
  | { kind: 'dashboard' };
export interface BrowserSend {
  machineId: number;
  command: MachineChannelCommand;
}

const ID = '([1-9][0-9]{0,9})';
const toId = (text: string | undefined): number | null => {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 && value <= ID_MAX ? value : null;
};

// A machine's queue, or its runs queue (ours: runsQueue of the domain), authorised alike.
const customerQueue = new RegExp(`^/ws/queue/backupmachines/${ID}(?:/runs)?$`);
const providerMachineQueue = new RegExp(`^/ws/queue/boltadmin/backupmachines/${ID}(?:/runs)?$`);
const providerMigrationQueue = new RegExp(`^/ws/queue/boltadmin/migrations/${ID}$`);
const customerSend = new RegExp(`^/ws/inbound/backupmachines/${ID}/([a-z]+)$`);
const providerSend = new RegExp(`^/ws/inbound/boltadmin/backupmachines/${ID}/([a-z]+)$`);

/** The subscription a destination names on an endpoint's side (001 §7), or null for anything else. */
export function readSubscription(side: Side, destination: string): BrowserSubscription | null {
  if (destination === DASHBOARD_TOPICS[side]) return { kind: 'dashboard' };
  if (side === 'customer') {
    const id = toId(customerQueue.exec(destination)?.[1]);
    return id === null ? null : { kind: 'machine', machineId: id };
  }
  const machine = toId(providerMachineQueue.exec(destination)?.[1]);
  if (machine !== null) return { kind: 'machine', machineId: machine };
  const migration = toId(providerMigrationQueue.exec(destination)?.[1]);
  return migration === null ? null : { kind: 'migration', migrationId: migration };
}

/** A command send (002 §7.8) under the side's prefix, or null for anything else. */
export function readSend(side: Side, destination: string): BrowserSend | null {
  const match = (side === 'customer' ? customerSend : providerSend).exec(destination);
  const machineId = toId(match?.[1]);
  const command = MACHINE_CHANNEL_COMMANDS.find((c) => c === match?.[2]);
  return machineId === null || !command ? null : { machineId, command };
}
