import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage, failure, machineLinkRequestSchema, ok, ROUTES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, writeConnectionState, writeStoredTasks } from './config.js';
import { envelopeErrors, linkMachine, normaliseServer } from './link.js';
import { statusText } from './status.js';
import { cli, makeTask } from './testing.js';

const TOKEN = 'secret-machine-token-0123456789abcdef';

/**
 * Answers like the portal's ROUTES.machineLink.agentLink: the envelope, validation of the body, wrong password, package
 * choice.
 */
let server: Server;
let base: string;
const received: unknown[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-link-'));
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (c) => {
      body += c;
    });
    request.on('end', () => {
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (request.method !== 'POST' || request.url !== ROUTES.machineLink.agentLink.build())
        return send(404, { message: 'Not Found' });
      const parsed = machineLinkRequestSchema.safeParse(JSON.parse(body));
      if (!parsed.success) return send(400, failure('VALIDATION_FAILED', [errorMessage('Invalid request', 'body')]));
      received.push(parsed.data);
      if (parsed.data.password !== 'right password') {
        return send(401, failure('UNAUTHENTICATED', [errorMessage('Wrong e-mail or password.')]));
      }
      if (parsed.data.email === 'admin@example.com' && parsed.data.backupPackageId === undefined) {
        return send(
          409,
          failure('CONFLICT', [errorMessage('Choose a backup package: Office (1), Servers (2).', 'backupPackageId')]),
        );
      }
      send(200, ok({ machineId: 42, token: TOKEN, relinked: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('agent link', () => {
  it('registers the machine and writes a 0600 config in a 0700 dir, never printing the token', async () => {
    const configPath = join(dir, 'cli', 'portal-agent', 'config.json');
    const result = await cli(
      ['link', '--server', `${base}/`, '--email', 'ana@example.com', '--password-stdin', '--name', 'ana-laptop'],
      'right password\n',
      { PORTAL_AGENT_CONFIG: configPath },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('machine 42');
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'cli', 'portal-agent')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configPath, 'utf8'))).toEqual({
      server: base,
      machineId: 42,
      token: TOKEN,
      stateDir: join(dir, 'cli', 'portal-agent', 'state'),
      name: 'ana-laptop',
    });
    const request = received.at(-1) as Record<string, unknown>;
    expect(request).toMatchObject({
      email: 'ana@example.com',
      password: 'right password',
      name: 'ana-laptop',
      osFamily: 'LINUX',
      clientVersion: '0.1.0',
    });
    expect(request.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(String(request.operatingSystem).length).toBeGreaterThan(0);
    expect(String(request.fingerprint).length).toBeGreaterThanOrEqual(8);

    // status: the link and the state, never the token
    const status = await cli(['status', '--config', configPath], '');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Machine id:    42');
    expect(status.stdout).toContain('never started');
    expect(status.stdout).not.toContain(TOKEN);
  });

  it("prints the portal's envelope messages and writes nothing on refusal", async () => {
    const configPath = join(dir, 'refused', 'config.json');
    const wrong = await cli(
      ['link', '--server', base, '--email', 'ana@example.com', '--password-stdin', '--config', configPath],
      'wrong\n',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Wrong e-mail or password.');
    const choose = await cli(
      ['link', '--server', base, '--email', 'admin@example.com', '--password-stdin', '--config', configPath],
      'right password',
    );
    expect(choose.code).toBe(1);
    expect(choose.stderr).toContain('backupPackageId: Choose a backup package: Office (1), Servers (2).');
    expect(() => statSync(configPath)).toThrow();
    const chosen = await cli(
      [
        'link',
        '--server',
        base,
        '--email',
        'admin@example.com',
        '--password-stdin',
        '--package',
        '2',
        '--config',
        configPath,
      ],
      'right password',
    );
    expect(chosen.code, chosen.stderr).toBe(0);
    expect((received.at(-1) as { backupPackageId?: number }).backupPackageId).toBe(2);
  });

  it('explains an unreachable server, a non-portal server and a bad URL', async () => {
    const configPath = join(dir, 'x', 'config.json');
    const opts = { proof: { email: 'a@b.c', password: 'right password' }, configPath };
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(linkMachine({ ...opts, server: `http://127.0.0.1:${closedPort}` })).rejects.toThrow(
      /Cannot reach .*ECONNREFUSED/,
    );
    await expect(linkMachine({ ...opts, server: `${base}/elsewhere` })).rejects.toThrow(/does not accept agent links/);
    expect(() => normaliseServer('ftp://x')).toThrow(/http/);
    expect(() => normaliseServer('https://u:p@x')).toThrow(/credentials/);
    expect(
      envelopeErrors({
        messages: [
          { message: 'm', fieldName: 'f' },
          { message: 'n', fieldName: '' },
        ],
      }),
    ).toEqual(['f: m', 'n']);
    const noTty = await cli(['link', '--server', base, '--email', 'a@b.c', '--config', configPath], '');
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--password-stdin');
  });

  it('keeps one fingerprint per device', async () => {
    const configPath = join(dir, 'fp', 'config.json');
    const opts = {
      proof: { email: 'a@b.c', password: 'right password' },
      configPath,
      server: base,
      machineIdFile: '/nonexistent',
    };
    await linkMachine(opts);
    const first = (received.at(-1) as { fingerprint: string }).fingerprint;
    await linkMachine(opts);
    expect((received.at(-1) as { fingerprint: string }).fingerprint).toBe(first);
    expect(statSync(join(dir, 'fp', 'fingerprint')).mode & 0o777).toBe(0o600);
    const machineId = join(dir, 'machine-id');
    writeFileSync(machineId, '0123456789abcdef0123456789abcdef\n');
    await linkMachine({ ...opts, machineIdFile: machineId });
    const hashed = (received.at(-1) as { fingerprint: string }).fingerprint;
    expect(hashed).toMatch(/^[0-9a-f]{64}$/);
    expect(hashed).not.toContain('0123456789abcdef');
    // PORTAL_AGENT_IGNORE_MACHINE_ID=1: the config directory's own id, not the host's machine id.
    process.env.PORTAL_AGENT_IGNORE_MACHINE_ID = '1';
    try {
      await linkMachine({ ...opts, machineIdFile: machineId });
      expect((received.at(-1) as { fingerprint: string }).fingerprint).toBe(first);
    } finally {
      delete process.env.PORTAL_AGENT_IGNORE_MACHINE_ID;
    }
  });
});

describe('agent status', () => {
  it('prints the connection state, the tasks with their next runs and the queue, never the token', () => {
    const configPath = join(dir, 'status', 'config.json');
    const stateDir = join(dir, 'status', 'state');
    const config = { server: base, machineId: 7, token: TOKEN, stateDir };
    writeFileSync(join(dir, 'status.json'), JSON.stringify(config));
    expect(readConfig(join(dir, 'status.json'))).toEqual(config);
    writeConnectionState(stateDir, {
      connected: false,
      lastConnectedAt: '2026-11-02T10:00:00.000Z',
      lastAttemptAt: '2026-11-02T11:00:00.000Z',
      lastError: 'ECONNREFUSED',
    });
    writeStoredTasks(stateDir, {
      tasks: [makeTask({ id: 3, name: 'Docs', scheduleCron: '30 2 * * *' }), makeTask({ id: 4, status: 'PAUSED' })],
      timeZone: 'Europe/London',
    });
    writeFileSync(
      join(stateDir, 'outbox.jsonl'),
      '{"type":"usage","usedSpaceBytes":1}\n{"type":"usage","usedSpaceBytes":2}\n{"ty',
    );
    const text = statusText(configPath, config, new Date('2026-11-02T12:00:00Z'));
    expect(text).toContain('Connection:    not connected, last connected 2026-11-02T10:00:00.000Z');
    expect(text).toContain('Last error:    ECONNREFUSED');
    expect(text).toContain('#3 Docs [30 2 * * *] next run: 2026-11-03T02:30:00.000Z');
    expect(text).toContain('next run: paused');
    expect(text).toContain('Queued events: 2');
    expect(text).not.toContain(TOKEN);
  });

  it('says when the machine is not linked', async () => {
    const result = await cli(['status', '--config', join(dir, 'nope', 'config.json')], '');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not linked yet');
  });
});
