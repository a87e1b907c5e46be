import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES, SERVICE_RESTART_CLOSE, type TreeItem } from '@portal/domain';
import { treeItem } from '@portal/domain/testing/tree-items';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChannel } from '../../../agent/src/channel.js';
import { type Database, openDatabase } from '../db/client.js';
import { eventually, stompClient } from '../features/live/testing.js';
import type { MachineCredential } from '../features/machine-auth/credentials.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import { type BrowserSession, type Instance, signIn, startInstance } from '../testing/instances.js';
import { machineWithCredential } from '../testing/listening-apps.js';
import {
  missingServerBinaries,
  type OwnPostgres,
  type OwnRedis,
  startOwnPostgres,
  startOwnRedis,
} from '../testing/own-servers.js';
import { freePort } from '../testing/rgw-cluster.js';

/**
 * Issue 33 item 10, the README's recipe for several instances, run as written: two server processes on one
 * PostgreSQL and one Redis of the test's own, behind nginx with the repository's `deploy/nginx/portal-proxy.conf`.
 * A browser signed in through nginx reaches an agent connected to either instance, a deploy (SIGTERM of one
 * instance) loses no request, and the agent comes back through nginx to the other.
 */
const NGINX = '/usr/sbin/nginx';
const recipe = join(dirname(fileURLToPath(import.meta.url)), '../../../../deploy/nginx/portal-proxy.conf');
const missing = missingServerBinaries() ?? (existsSync(NGINX) ? null : `not installed: ${NGINX}`);
if (missing) console.warn(`multi-instance recipe test skipped: ${missing}`);

/** nginx in front of `ports`, the recipe included in its server block; each request logged with its instance. */
async function startNginx(dir: string, ports: number[]) {
  const port = await freePort();
  for (const temp of ['body', 'proxy']) mkdirSync(join(dir, temp), { recursive: true });
  const config = join(dir, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes 1;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
  log_format instances '$request_method $uri $status $upstream_addr';
  access_log ${dir}/access.log instances;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream portal {
${ports.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location = /nginx-started { return 204; }
    include ${recipe};
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', config, '-p', dir, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/nginx-started`)).status === 204;
    } catch {
      return false;
    }
  }, 10_000);
  return { child, port, log: () => readFileSync(join(dir, 'access.log'), 'utf8') };
}

/** The machine's page as the browser asks for it. */
function machinePage(base: string, session: BrowserSession, machineId: number) {
  return fetch(base + ROUTES.machines.detail.build({ machineId }), {
    headers: { accept: 'application/json', cookie: session.cookie },
  });
}

/** The browser's folder picker: answered by the agent over the live channel, wherever it is connected. */
async function listFolder(base: string, session: BrowserSession, machineId: number, path: string) {
  const answer = await fetch(base + ROUTES.treeItems.list.build({ machineId }), {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
    },
    body: JSON.stringify({ treeItemsRequestId: path, type: 'DIRECTORY', local: true, path, selected: false }),
  });
  const body = (await answer.json()) as { result?: { treeItems?: TreeItem[] } };
  return { status: answer.status, values: (body.result?.treeItems ?? []).map((i) => i.value) };
}

describe.skipIf(missing)('several instances behind nginx (the README recipe)', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let database: Database;
  let tenants: Tenants;
  let machineId: number;
  let credential: MachineCredential;
  const dir = mkdtempSync(join(tmpdir(), 'portal-instances-'));
  const children: ChildProcess[] = [];
  let nginxChild: ChildProcess | null = null;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    database = await openDatabase({ databaseUrl: postgres.url, dataDir: 'memory://' });
    await database.migrate();
    tenants = await createTenants(database.db);
    credential = await machineWithCredential(database.db, tenants);
    machineId = credential.machineId;
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    // nginx's master stops its workers on SIGTERM; killed outright, it would leave them running.
    const nginx = nginxChild;
    if (nginx && nginx.exitCode === null) {
      await new Promise<void>((resolve) => {
        nginx.once('exit', () => resolve());
        nginx.kill('SIGTERM');
      });
    }
    await database?.close();
    await Promise.all([postgres?.remove(), redis?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves one session from both instances, reaches the agent through either, and loses no request in a deploy', async () => {
    const ports = [await freePort(), await freePort()];
    const nginx = await startNginx(join(dir, 'nginx'), ports);
    nginxChild = nginx.child;
    const base = `http://127.0.0.1:${nginx.port}`;
    const start = (port: number, name: string): Promise<Instance> =>
      startInstance(postgres.url, join(dir, name), {
        PORT: String(port),
        REDIS_URL: redis.url,
        PUBLIC_URL: base,
      }).then((instance) => {
        children.push(instance.child);
        return instance;
      });

    // Only the first instance is up when the agent connects: nginx passes the refused second one by, so the
    // agent is on the first, which the deploy below stops.
    const [firstPort = 0, secondPort = 0] = ports;
    const first = await start(firstPort, 'a');
    const disconnects: string[] = [];
    let connections = 0;
    const agent = new AgentChannel({
      server: base,
      machineId: credential.machineId,
      token: credential.token,
      onConnected: () => {
        connections += 1;
      },
      onDisconnected: (reason) => disconnects.push(reason),
      onMessage: (message) => {
        if (message.type !== 'treeItems') return;
        void agent.send({
          type: 'reply',
          requestId: message.requestId,
          success: true,
          messages: [],
          payload: { treeItems: [treeItem(`${message.path}/documents`)] },
        });
      },
    });
    agent.start();
    try {
      await eventually(() => connections === 1, 15_000);
      const second = await start(secondPort, 'b');
      // nginx took the second instance out of rotation when the agent's first attempt found it refusing (its
      // max_fails, fail_timeout 10 s): it is back once nginx sends it a request again.
      const servedBy = (instance: Instance) => (line: string) => line.endsWith(`127.0.0.1:${instance.port}`);
      await eventually(async () => {
        await fetch(`${base}/health`);
        return nginx.log().split('\n').some(servedBy(second));
      }, 30_000);

      // One sign-in through nginx; the session and its CSRF token hold on whichever instance a request lands.
      const session = await signIn(base, tenants.customerA.superAdmin.email);
      for (let i = 0; i < 4; i++) {
        expect(await listFolder(base, session, machineId, `/home/${i}`)).toEqual({
          status: 200,
          values: [`/home/${i}/documents`],
        });
      }
      const served = nginx
        .log()
        .split('\n')
        .filter((line) => line.startsWith('POST /backupmachines/'));
      // Round robin: the second instance answered some, through Redis to the agent on the first.
      for (const instance of [first, second]) expect(served.filter(servedBy(instance)).length).toBeGreaterThan(0);

      // The browser's live channel through nginx (the upgrade passed, Host kept for the origin check).
      const browser = stompClient(`ws://127.0.0.1:${nginx.port}/ws/connect`, {
        headers: { cookie: session.cookie, origin: base },
      });
      expect(await browser.connected).toBe('connected');
      await browser.stop();

      // A deploy: the first instance stops while the browser keeps asking; nginx sends every request to the
      // other, and the agent, told 'service restart', reconnects through nginx to it.
      const statuses: number[] = [];
      let asking = true;
      const browsing = (async () => {
        while (asking) {
          statuses.push((await machinePage(base, session, machineId)).status);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
      await eventually(() => connections === 2, 20_000);
      asking = false;
      await browsing;
      expect(disconnects[0]).toContain(String(SERVICE_RESTART_CLOSE.code));
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(await listFolder(base, session, machineId, '/srv')).toEqual({ status: 200, values: ['/srv/documents'] });
      expect(servedBy(second)(nginx.log().trimEnd().split('\n').at(-1) ?? '')).toBe(true);
    } finally {
      await agent.stop();
    }
  });
});
