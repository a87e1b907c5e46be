// The agent's overhead (issue #5): a backup of 10,000 files / 1 GB through the agent's restic engine
// against bare restic on the same data, in the same run: at most 5 % more wall time. Both back up into
// fresh, already initialised local repositories with the same arguments; runs alternate, and the
// medians are compared. `npx tsx bench/agent/overhead.ts` (BENCH_AGENT_FILES, BENCH_AGENT_MB, BENCH_AGENT_RUNS).
// A backup that fails on either side fails the run, and no figures are printed.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupArgs, localExclusionPlatform, ResticRunner } from '../../apps/agent/src/restic.js';
import { dirItem, makeTask } from '../../apps/agent/src/testing.js';
import { Answers } from '../answers.js';

const FILES = Number(process.env.BENCH_AGENT_FILES ?? 10_000);
const TOTAL_MB = Number(process.env.BENCH_AGENT_MB ?? 1024);
const RUNS = Number(process.env.BENCH_AGENT_RUNS ?? 3);
const TARGET_RATIO = 1.05;
const PASSWORD = 'bench-agent-password';
const DATA = join(tmpdir(), `portal-bench-agent-${FILES}-${TOTAL_MB}`);

/** Random (so incompressible and not deduplicated) files in 100 folders; made once and kept. */
function ensureData(): void {
  const marker = join(DATA, '.complete');
  if (existsSync(marker)) return;
  rmSync(DATA, { recursive: true, force: true });
  const size = Math.floor((TOTAL_MB * 1024 * 1024) / FILES);
  const started = Date.now();
  for (let i = 0; i < FILES; i++) {
    const dir = join(DATA, `folder-${String(i % 100).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file-${i}.bin`), randomBytes(size));
  }
  writeFileSync(marker, '');
  console.log(`generated ${FILES} files, ${TOTAL_MB} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function restic(repository: string, args: string[]): { status: number | null; ms: number } {
  const started = process.hrtime.bigint();
  const result = spawnSync('restic', args, {
    env: { ...process.env, RESTIC_REPOSITORY: repository, RESTIC_PASSWORD: PASSWORD, RESTIC_PROGRESS_FPS: '4' },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

function freshRepository(): string {
  const repository = mkdtempSync(join(tmpdir(), 'portal-bench-repo-'));
  rmSync(repository, { recursive: true });
  if (restic(repository, ['init']).status !== 0) throw new Error('restic init failed');
  return repository;
}

const task = makeTask({ id: 1, backupItems: [dirItem(DATA)] });
const answers = new Answers();

async function bare(): Promise<number> {
  const repository = freshRepository();
  try {
    const run = restic(repository, backupArgs(task, 'bench', localExclusionPlatform()));
    answers.outcome('bare restic backup', run.status === 0, `exit code ${run.status}`);
    return run.ms;
  } finally {
    rmSync(repository, { recursive: true, force: true });
  }
}

async function throughAgent(): Promise<number> {
  const repository = freshRepository();
  try {
    const runner = new ResticRunner({ repository: { repository, password: PASSWORD }, host: 'bench' });
    // A running agent checks its repository once, when the portal sends it, not before every backup.
    await runner.ensureRepository();
    let events = 0;
    const started = process.hrtime.bigint();
    const finished = await runner.backup(task, `bench-${Date.now()}`, () => {
      events++;
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const whole = finished.status === 'FINISHED_SUCCESS' && finished.snapshotId && events > 0;
    answers.outcome(
      "the agent's backup",
      Boolean(whole),
      `ended ${finished.status}, snapshot ${finished.snapshotId ?? 'none'}, ${events} progress events`,
    );
    return ms;
  } finally {
    rmSync(repository, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  if (spawnSync('restic', ['version'], { stdio: 'ignore' }).status !== 0) throw new Error('restic is not installed');
  console.log(`Agent overhead: ${FILES} files, ${TOTAL_MB} MB, ${RUNS} runs each, alternating (bare first)`);
  ensureData();
  // Read everything once so both sides start from a warm page cache.
  spawnSync('sh', ['-c', `cat ${DATA}/*/* > /dev/null`]);

  const bareMs: number[] = [];
  const agentMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bareMs.push(await bare());
    agentMs.push(await throughAgent());
    if (answers.failed === 0)
      console.log(`  run ${i + 1}: bare ${(bareMs[i] ?? 0).toFixed(0)} ms, agent ${(agentMs[i] ?? 0).toFixed(0)} ms`);
  }
  if (!answers.verdict('Agent overhead')) return;
  const ratio = median(agentMs) / median(bareMs);
  console.log(
    `median: bare restic ${median(bareMs).toFixed(0)} ms, through the agent ${median(agentMs).toFixed(0)} ms, ` +
      `ratio ${ratio.toFixed(3)} (target <= ${TARGET_RATIO}): ${ratio <= TARGET_RATIO ? 'ok' : 'MISSED'}`,
  );
  if (ratio > TARGET_RATIO) process.exitCode = 1;
}

await main();
