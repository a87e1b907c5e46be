/**
 * The machine a journey with a real agent works on: a folder of its own on "the machine" (this computer), agents it
 * starts and that stop when it ends, and the one machine linked per worker for journeys that need a linked machine
 * but not the act of linking (linking costs two agent runs and a connection; the linking journeys keep their own).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { type LinkedMachine, linkAgent, runAgent } from './agent';

/** The shared machine: its owner, name and agent config besides what linking stored. */
export interface SharedMachine extends LinkedMachine {
  owner: string;
  name: string;
  config: string;
}

interface MachineFixtures {
  /** A fresh folder of the journey's own on the machine (samples, agent configs, restore targets), removed after. */
  machineDir: string;
  /** The folder `samples` in machineDir, made: what the journey's task backs up. */
  samples: string;
  /** Starts `portal-agent run` with a linked config; the agent is stopped when the journey ends. */
  startAgent: (config: string) => void;
}

interface SharedMachineFixtures {
  /**
   * Linked once per worker by the demo customer admin (CLI and password, in 'Head office'), its agent running until
   * the worker ends. Sorted last by name, so the journeys that look at the first page of machines do not see it.
   */
  sharedMachine: SharedMachine;
}

export const test = base.extend<MachineFixtures, SharedMachineFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures this one needs from the pattern
  machineDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-machine-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  samples: async ({ machineDir }, use) => {
    const samples = join(machineDir, 'samples');
    mkdirSync(samples);
    await use(samples);
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above
  startAgent: async ({}, use) => {
    const agents: ChildProcess[] = [];
    await use((config) => {
      agents.push(runAgent(config));
    });
    for (const agent of agents) agent.kill('SIGKILL');
  },
  sharedMachine: [
    // biome-ignore lint/correctness/noEmptyPattern: as above
    async ({}, use, workerInfo) => {
      const dir = mkdtempSync(join(tmpdir(), 'portal-shared-machine-e2e-'));
      const owner = 'customer-admin@demo.test';
      const name = 'ZZ-SHARED-AGENT';
      const config = join(dir, 'config.json');
      const linked = linkAgent({ baseURL: workerInfo.project.use.baseURL as string, email: owner, name, config });
      const agent = runAgent(config);
      await use({ ...linked, owner, name, config });
      agent.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});
