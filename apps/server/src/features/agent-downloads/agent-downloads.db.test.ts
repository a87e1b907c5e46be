import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LinkingCodeResult, MESSAGES, RESTIC_INSTALL_HINTS, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtAgent } from '../../../../agent/src/built-agent.js';
import { backupMachines } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { linkFixtures } from '../machine-link/testing.js';

const run = promisify(execFile);
const TEXT = MESSAGES.agentInstall;

let t: TestApp;
let tenants: Tenants;
let server: string;
let dist: string;
let work: string;

/** A free port, so PUBLIC_URL can name the address the installers will reach. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'portal-agent-install-'));
  dist = await builtAgent();
  const port = await freePort();
  server = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: server, AGENT_DIST_DIR: dist });
  ({ tenants } = await linkFixtures(t.database.db));
  await t.app.listen({ port, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('agent downloads (issue 14)', () => {
  it('serves the bundle as JavaScript that runs with Node: --help and --version', async () => {
    const response = await t.app.inject({ method: 'GET', url: ROUTES.agentDownloads.bundle.build() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="portal-agent.cjs"; filename*=UTF-8''portal-agent.cjs`,
    );
    const file = join(work, 'downloaded.cjs');
    writeFileSync(file, response.rawPayload);
    const help = await run(process.execPath, [file, '--help']);
    expect(help.stdout).toContain('Usage: portal-agent <command> [options]');
    expect((await run(process.execPath, [file, '--version'])).stdout).toBe('portal-agent 0.1.0\n');
  });

  it('serves the Linux x64 executable as a binary download', async () => {
    const response = await t.app.inject({ method: 'GET', url: ROUTES.agentDownloads.linuxExecutable.build() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(Number(response.headers['content-length'])).toBe(statSync(join(dist, 'portal-agent-linux-x64')).size);
    // An ELF executable.
    expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  });

  it('fills the installers with the portal address, the code and the package, and nothing else', async () => {
    const url = `${ROUTES.agentDownloads.unixInstaller.build()}?code=abcd efgh-jk23&package=7`;
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const script = response.body;
    expect(script).toContain(`SERVER='${server}'`);
    expect(script).toContain(`CODE="\${PORTAL_LINKING_CODE:-ABCD-EFGH-JK23}"`);
    expect(script).toContain("PACKAGE='7'");
    expect(script).toContain(RESTIC_INSTALL_HINTS.debian);
    expect(script).not.toContain('@@');
    execFileSync('sh', ['-n'], { input: script });

    const windows = await t.app.inject({ method: 'GET', url: ROUTES.agentDownloads.windowsInstaller.build() });
    expect(windows.statusCode).toBe(200);
    expect(windows.body).toContain(`$Server = '${server}'`);
    expect(windows.body).toContain(RESTIC_INSTALL_HINTS.windows);
    expect(windows.body).not.toContain('@@');
  });

  it('refuses a malformed code or package on its field, for both installers', async () => {
    for (const entry of [ROUTES.agentDownloads.unixInstaller, ROUTES.agentDownloads.windowsInstaller]) {
      for (const code of ["ABCD-EFGH-JK2'", 'ABCD-EFGH-JK10', 'short']) {
        const response = await t.app.inject({
          method: 'GET',
          url: `${entry.build()}?code=${encodeURIComponent(code)}`,
        });
        expect(response.statusCode, code).toBe(400);
        expect(response.json().messages).toEqual([
          expect.objectContaining({ fieldName: 'code', message: TEXT.badCode }),
        ]);
      }
      const badPackage = await t.app.inject({ method: 'GET', url: `${entry.build()}?package=x` });
      expect(badPackage.statusCode).toBe(400);
      expect(badPackage.json().messages[0].fieldName).toBe('package');
    }
  });

  it('answers 404 for the agent files when the server has no agent build', async () => {
    const bare = await createTestApp({ AGENT_DIST_DIR: join(work, 'nothing-here') });
    try {
      for (const entry of Object.values(ROUTES.agentDownloads)) {
        const response = await bare.app.inject({ method: 'GET', url: entry.build() });
        expect(response.statusCode, entry.path).toBe(404);
        expect(response.json().messages[0].message).toBe(TEXT.notBuilt);
      }
    } finally {
      await bare.close();
    }
  });
});

/** Runs the one-liner of the 'Link a machine' dialog on this machine, as a user would (no root: a prefix). */
function installer(args: string, env: Record<string, string>) {
  const url = `${server}${ROUTES.agentDownloads.unixInstaller.build()}${args}`;
  return run('sh', ['-c', `curl -fsSL '${url}' | sh`], { env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
  );
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the Linux installer on this machine (no systemd here: the agent runs in the background)', () => {
  let prefix: string;
  let env: Record<string, string>;
  let client: TestClient;

  beforeAll(async () => {
    prefix = join(work, 'prefix');
    env = { PORTAL_AGENT_PREFIX: prefix, HOME: join(work, 'home') };
    client = new TestClient(t.app);
    await client.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
  });

  const makeCode = async () => {
    const response = await client.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().result as LinkingCodeResult).code;
  };
  const config = () => JSON.parse(readFileSync(join(prefix, 'etc/portal-agent/config.json'), 'utf8'));
  const pid = () => Number(readFileSync(join(prefix, 'etc/portal-agent/agent.pid'), 'utf8'));
  const machine = async (machineId: number) =>
    (await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, machineId)))[0];

  it('refuses plainly without restic and changes nothing', async () => {
    const bin = join(work, 'no-restic-bin');
    mkdirSync(bin);
    for (const tool of ['sh', 'curl', 'uname', 'id', 'mkdir', 'dirname', 'ps', 'tr', 'cat', 'grep']) {
      symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
    }
    const refused = await installer(`?code=${await makeCode()}`, { ...env, PATH: bin });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('restic is not installed');
    expect(refused.output).toContain(RESTIC_INSTALL_HINTS.debian);
    expect(existsSync(join(prefix, 'bin/portal-agent'))).toBe(false);
  });

  it('installs, links and starts the agent; run again, it is one agent and one machine, linked again', async () => {
    const first = await installer(`?code=${await makeCode()}`, env);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('NOT installed as a service');
    expect(first.output).toContain('started in the background');
    expect(first.output).toContain('the agent is connected to the portal');
    expect(statSync(join(prefix, 'etc/portal-agent/config.json')).mode & 0o777).toBe(0o600);
    const { machineId } = config();
    const firstPid = pid();
    expect(alive(firstPid)).toBe(true);
    expect(await machine(machineId)).toMatchObject({ customerId: tenants.customerA.customerId });
    await expect.poll(async () => (await machine(machineId))?.online).toBe(true);

    const secondCode = await makeCode();
    const second = await installer(`?code=${secondCode}`, env);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain(`Linked again: this machine is machine ${machineId}`);
    expect(config().machineId).toBe(machineId);
    expect(alive(firstPid)).toBe(false);
    expect(alive(pid())).toBe(true);
    await expect.poll(async () => (await machine(machineId))?.online).toBe(true);

    // The same line a third time: the code is spent, the machine stays linked and the agent runs again.
    const third = await installer(`?code=${secondCode}`, env);
    expect(third.code, third.output).toBe(0);
    expect(third.output).toContain('the machine stays linked as before');
    expect(alive(pid())).toBe(true);
  }, 120_000);

  it('uninstalls: stops the agent, gives up the credential, removes its files', async () => {
    const { machineId } = config();
    const running = pid();
    const result = await run(
      'sh',
      ['-c', `curl -fsSL '${server}${ROUTES.agentDownloads.unixInstaller.build()}' | sh -s -- --uninstall`],
      {
        env: { ...process.env, ...env },
      },
    );
    expect(result.stdout).toContain('uninstalled');
    expect(alive(running)).toBe(false);
    expect(existsSync(join(prefix, 'bin/portal-agent'))).toBe(false);
    expect(existsSync(join(prefix, 'etc/portal-agent'))).toBe(false);
    // The machine and its backups stay in the portal; its credential does not.
    expect((await machine(machineId))?.credentialRevokedAt).not.toBeNull();
  }, 60_000);
});
