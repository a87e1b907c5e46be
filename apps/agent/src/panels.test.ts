/**
 * cPanel and DirectAdmin tasks (issue 14) against the real restic 0.14 and a panel's files built below a temporary
 * root (there is no cPanel or DirectAdmin on the test machines; the agent reads only their files).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AgentTask, agentToServerSchema, PANEL_MESSAGES, treeItemSchema } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPanelTask, PanelNotInstalledError, panelAccounts, panelTree } from './panels.js';
import { ResticRunner, type RunEvent } from './restic.js';
import { runRestore } from './restore.js';
import { makeTask } from './testing.js';

const PASSWORD = 'panel-test-password';
let base = '';

function write(root: string, path: string, content: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/**
 * A server with cPanel: ana (home from /etc/passwd, with userdata), bob (home elsewhere, from /etc/passwd), carl
 * (not in /etc/passwd: HOMEDIR= of his account file), and entries that are not accounts.
 */
function cpanelServer(): string {
  const root = mkdtempSync(join(base, 'cpanel-'));
  write(
    root,
    'etc/passwd',
    'root:x:0:0:root:/root:/bin/bash\nana:x:1001:1001::/home/ana:/bin/bash\nbob:x:1002:1002::/home2/bob:/bin/bash\n',
  );
  write(root, 'var/cpanel/users/ana', 'USER=ana\nDNS=ana.test\n');
  write(root, 'var/cpanel/users/bob', 'USER=bob\nDNS=bob.test\n');
  write(root, 'var/cpanel/users/carl', 'USER=carl\nHOMEDIR=/home/carl-site\n');
  write(root, 'var/cpanel/users/.carl.swp', 'editor left-over');
  mkdirSync(join(root, 'var/cpanel/users/not-a-file'));
  write(root, 'var/cpanel/userdata/ana/ana.test', 'documentroot: /home/ana/public_html\n');
  write(root, 'home/ana/public_html/index.html', '<h1>Ana</h1>\n');
  write(root, 'home2/bob/mail/inbox', 'From: someone\n\nhello bob\n');
  write(root, 'home/carl-site/notes.txt', 'carl\n');
  return root;
}

function runner(repo: string, binary?: string): ResticRunner {
  return new ResticRunner({
    repository: { repository: repo, password: PASSWORD },
    host: 'web-1',
    cacheDir: null,
    platform: 'UNIX',
    ...(binary ? { binary } : {}),
  });
}

const restic = (repo: string, args: string[]) =>
  execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** The task's snapshots in the repository: account tag → snapshot ids. */
function snapshotsByAccount(repo: string, taskId: number): Record<string, string[]> {
  const list = JSON.parse(restic(repo, ['snapshots', '--json', '--tag', `task-${taskId}`])) as Array<{
    id: string;
    tags?: string[];
  }>;
  const byAccount: Record<string, string[]> = {};
  for (const snapshot of list) {
    const account = snapshot.tags?.find((t) => t.startsWith('account-'))?.slice('account-'.length) ?? '(none)';
    expect(snapshot.tags).toContain(`task-${taskId}`);
    byAccount[account] = [...(byAccount[account] ?? []), snapshot.id];
  }
  return byAccount;
}

const account = (name: string, type: 'CPANEL_ACCOUNT' | 'DIRECT_ADMIN_ACCOUNT' = 'CPANEL_ACCOUNT') => ({
  path: name,
  name,
  type,
  missing: false,
});

function panelTask(overrides: Partial<AgentTask> = {}): AgentTask {
  return makeTask({
    id: 7,
    name: 'Hosting',
    type: 'CPANEL',
    backupItems: [account('ana'), account('bob')],
    ...overrides,
  });
}

async function run(repo: string, task: AgentTask, root: string, now: () => Date = () => new Date(), binary?: string) {
  const events: RunEvent[] = [];
  const finished = await backupPanelTask(
    runner(repo, binary),
    task,
    `run-${Date.now()}`,
    (e) => events.push(e),
    undefined,
    { root, now },
  );
  for (const event of [...events, finished]) expect(agentToServerSchema.safeParse(event).success).toBe(true);
  const messages = events.flatMap((e) => (e.type === 'messages' ? e.messages : []));
  const progress = events.filter((e) => e.type === 'runProgress');
  return { finished, messages, progress };
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-panels-'));
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('listing the hosting accounts', () => {
  it("lists cPanel's accounts with their home directories and the panel's own files for them", async () => {
    const root = cpanelServer();
    const { treeItems } = await panelTree('CPANEL', root);
    for (const item of treeItems) expect(treeItemSchema.safeParse(item).success).toBe(true);
    expect(treeItems.map((i) => [i.value, i.text, i.type, i.leaf, i.children])).toEqual([
      ['ana', 'ana', 'CPANEL_ACCOUNT', true, []],
      ['bob', 'bob', 'CPANEL_ACCOUNT', true, []],
      ['carl', 'carl', 'CPANEL_ACCOUNT', true, []],
    ]);
    expect(await panelAccounts('CPANEL', root)).toEqual([
      {
        name: 'ana',
        paths: [join(root, 'home/ana'), join(root, 'var/cpanel/users/ana'), join(root, 'var/cpanel/userdata/ana')],
      },
      { name: 'bob', paths: [join(root, 'home2/bob'), join(root, 'var/cpanel/users/bob')] },
      { name: 'carl', paths: [join(root, 'home/carl-site'), join(root, 'var/cpanel/users/carl')] },
    ]);
  });

  it("lists DirectAdmin's accounts: a folder each in data/users, home in /home", async () => {
    const root = mkdtempSync(join(base, 'da-'));
    write(root, 'usr/local/directadmin/data/users/dave/user.conf', 'username=dave\n');
    write(root, 'usr/local/directadmin/data/users/stray-file', 'x');
    write(root, 'home/dave/domains/dave.test/public_html/index.html', 'dave\n');
    const { treeItems } = await panelTree('DIRECT_ADMIN', root);
    expect(treeItems.map((i) => [i.value, i.type])).toEqual([['dave', 'DIRECT_ADMIN_ACCOUNT']]);
    expect(await panelAccounts('DIRECT_ADMIN', root)).toEqual([
      { name: 'dave', paths: [join(root, 'home/dave'), join(root, 'usr/local/directadmin/data/users/dave')] },
    ]);
  });

  it('says the panel is not installed, rather than listing nothing', async () => {
    const root = mkdtempSync(join(base, 'plain-'));
    await expect(panelTree('CPANEL', root)).rejects.toThrow(PanelNotInstalledError);
    await expect(panelTree('DIRECT_ADMIN', root)).rejects.toThrow(PANEL_MESSAGES.notInstalled('DIRECT_ADMIN', root));
  });
});

describe('backing up accounts with restic', () => {
  it('backs up each chosen account as a snapshot of its own, its files restorable byte for byte', async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-two');
    const { finished, progress } = await run(repo, panelTask(), root);
    expect(finished).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS', failureMessage: null });

    const byAccount = snapshotsByAccount(repo, 7);
    expect(Object.keys(byAccount).sort()).toEqual(['ana', 'bob']); // carl was not chosen
    expect(finished.snapshotId).toBe(byAccount.ana?.[0]);
    // The portal learns every account's snapshot of the run, the run's own first.
    expect(finished.accountSnapshots).toEqual([
      { account: 'ana', snapshotId: byAccount.ana?.[0] },
      { account: 'bob', snapshotId: byAccount.bob?.[0] },
    ]);
    const dump = (account: string, path: string) =>
      restic(repo, ['dump', (byAccount[account] as string[])[0] as string, join(root, path)]);
    expect(dump('ana', 'home/ana/public_html/index.html')).toBe('<h1>Ana</h1>\n');
    expect(dump('ana', 'var/cpanel/users/ana')).toBe('USER=ana\nDNS=ana.test\n');
    expect(dump('ana', 'var/cpanel/userdata/ana/ana.test')).toBe('documentroot: /home/ana/public_html\n');
    expect(dump('bob', 'home2/bob/mail/inbox')).toBe('From: someone\n\nhello bob\n');
    // Each snapshot holds its own account only.
    expect(() => dump('bob', 'home/ana/public_html/index.html')).toThrow();
    expect(finished.bytesTotal).toBe(
      ['<h1>Ana</h1>\n', 'USER=ana\nDNS=ana.test\n', 'documentroot: /home/ana/public_html\n']
        .concat(['From: someone\n\nhello bob\n', 'USER=bob\nDNS=bob.test\n'])
        .reduce((n, text) => n + Buffer.byteLength(text), 0),
    );
    // The run report adds up both accounts' summaries (issue 31): ana's three files and bob's two, all new.
    expect(finished.summary).toMatchObject({ filesNew: 5, filesChanged: 0, filesUnmodified: 0 });
    // One run: the percentage never goes back, and the run is FINALIZED once, at its end.
    const percentages = progress.map((p) => p.percentage);
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(progress.filter((p) => p.phase === 'FINALIZED')).toHaveLength(1);
    expect(progress.at(-1)?.phase).toBe('FINALIZED');
  });

  it("restores the chosen accounts' items from each one's snapshot of the run, byte for byte", async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-restore');
    const { finished } = await run(repo, panelTask(), root);
    const [ana, bob] = finished.accountSnapshots ?? [];
    if (!ana || !bob) throw new Error('the run reported no account snapshots');
    const target = mkdtempSync(join(base, 'restored-'));
    const events: RunEvent[] = [];
    const restored = await runRestore(
      runner(repo),
      {
        type: 'restoreRun',
        requestId: 'q',
        taskId: 7,
        runId: 1,
        snapshots: [
          { snapshotId: ana.snapshotId, includes: [join(root, 'home/ana/public_html')] },
          { snapshotId: bob.snapshotId, includes: [] },
        ],
        target,
        existingFiles: 'OVERWRITE',
      },
      'restore-1',
      (e) => events.push(e),
      { platform: 'UNIX', measureMs: 5 },
    );
    for (const event of [...events, restored]) expect(agentToServerSchema.safeParse(event).success).toBe(true);
    expect(restored).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' });
    const at = (path: string) => join(target, root, path);
    expect(readFileSync(at('home/ana/public_html/index.html'), 'utf8')).toBe('<h1>Ana</h1>\n');
    expect(existsSync(at('var/cpanel/users/ana'))).toBe(false);
    expect(readFileSync(at('home2/bob/mail/inbox'), 'utf8')).toBe('From: someone\n\nhello bob\n');
    expect(readFileSync(at('var/cpanel/users/bob'), 'utf8')).toBe('USER=bob\nDNS=bob.test\n');
    const bytes = ['<h1>Ana</h1>\n', 'From: someone\n\nhello bob\n', 'USER=bob\nDNS=bob.test\n'];
    expect(restored.bytesTotal).toBe(bytes.reduce((n, text) => n + Buffer.byteLength(text), 0));
  });

  it('with back up new items, also backs up an account added after the task was made', async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-new');
    write(
      root,
      'etc/passwd',
      `${readFileSync(join(root, 'etc/passwd'), 'utf8')}erin:x:1005:1005::/home/erin:/bin/sh\n`,
    );
    write(root, 'var/cpanel/users/erin', 'USER=erin\n');
    write(root, 'home/erin/public_html/new.html', 'new account\n');

    await run(repo, panelTask({ backupItems: [account('ana')] }), root);
    expect(Object.keys(snapshotsByAccount(repo, 7))).toEqual(['ana']);

    const anyNew = panelTask({
      backupItems: [account('ana')],
      extraTaskSettings: { ...panelTask().extraTaskSettings, backupAnyNewAvailableItems: true },
    });
    const { finished } = await run(repo, anyNew, root);
    expect(finished.status).toBe('FINISHED_SUCCESS');
    const byAccount = snapshotsByAccount(repo, 7);
    expect(Object.keys(byAccount).sort()).toEqual(['ana', 'bob', 'carl', 'erin']);
    expect(
      restic(repo, ['dump', (byAccount.erin as string[])[0] as string, join(root, 'home/erin/public_html/new.html')]),
    ).toBe('new account\n');
  });

  it("reports the accounts on the server and never deletes a removed account's backups itself (issue 16)", async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-prune');
    let now = new Date('2026-03-01T12:00:00Z');
    const clock = () => now;
    const task = panelTask({
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
        timeUnitForBackupItemPruning: 'DAY',
        backupAnyNewAvailableItems: false,
      },
    });
    const before = await run(repo, task, root, clock);
    expect(before.finished.panelAccounts).toEqual(['ana', 'bob', 'carl']);
    rmSync(join(root, 'var/cpanel/users/bob'));

    // Long past the delay: bob's backup is still there; the run tells the portal he is gone, and it prunes.
    now = new Date('2026-06-01T12:00:00Z');
    const after = await run(repo, task, root, clock);
    expect(after.finished.status).toBe('FINISHED_SUCCESS');
    expect(after.finished.panelAccounts).toEqual(['ana', 'carl']);
    expect(after.messages.map((m) => m.text)).toContain(PANEL_MESSAGES.accountGone('bob'));
    expect(snapshotsByAccount(repo, 7).bob).toHaveLength(1);
    expect(after.progress.map((p) => p.phase)).not.toContain('CLEANING_UP_REPOSITORY');
  });

  it('keeps removed accounts’ backups when pruning is off, and fails a run whose chosen accounts are all gone', async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-keep');
    let now = new Date('2026-03-01T12:00:00Z');
    const task = panelTask({ backupItems: [account('bob')] });
    await run(repo, task, root, () => now);
    rmSync(join(root, 'var/cpanel/users/bob'));
    now = new Date('2030-01-01T00:00:00Z');
    const { finished } = await run(repo, task, root, () => now);
    expect(finished).toMatchObject({
      status: 'FAILED',
      exitCodeResult: 'FATAL',
      failureMessage: PANEL_MESSAGES.nothingToBackUp('CPANEL'),
    });
    expect(snapshotsByAccount(repo, 7).bob).toHaveLength(1);
  });

  it("fails the run when one account's backup fails, naming it, and still backs up the others", async () => {
    const root = cpanelServer();
    const repo = join(base, 'repo-failing');
    // restic itself, except that the backup of bob's account fails as a broken storage would make it.
    const wrapper = join(base, 'restic-failing-bob');
    writeFileSync(
      wrapper,
      '#!/bin/sh\ncase "$*" in *account-bob*) echo "Fatal: unable to save snapshot: storage gone" >&2; exit 1;; esac\nexec /usr/bin/restic "$@"\n',
      { mode: 0o755 },
    );
    const task = panelTask({ backupItems: [account('ana'), account('bob'), account('carl')] });
    const { finished, messages } = await run(repo, task, root, () => new Date(), wrapper);
    expect(finished).toMatchObject({
      status: 'FAILED',
      exitCodeResult: 'FATAL',
      failureMessage: PANEL_MESSAGES.accountsFailed(['bob']),
    });
    expect(messages.map((m) => m.text)).toContain(
      PANEL_MESSAGES.accountFailed('bob', 'Fatal: unable to save snapshot: storage gone'),
    );
    const byAccount = snapshotsByAccount(repo, 7);
    expect(Object.keys(byAccount).sort()).toEqual(['ana', 'carl']);
    expect(finished.snapshotId).toBe(byAccount.ana?.[0]);
    expect(finished.accountSnapshots?.map((a) => a.account)).toEqual(['ana', 'carl']);
  });

  it('fails the run with the panel message on a machine without the panel', async () => {
    const root = mkdtempSync(join(base, 'plain-'));
    const repo = join(base, 'repo-none');
    const { finished, messages } = await run(repo, panelTask(), root);
    const text = PANEL_MESSAGES.notInstalled('CPANEL', root);
    expect(finished).toMatchObject({ status: 'FAILED', exitCodeResult: 'FATAL', failureMessage: text });
    expect(messages).toEqual([expect.objectContaining({ type: 'ERROR', text })]);
  });
});
