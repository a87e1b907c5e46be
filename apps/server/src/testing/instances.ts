import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { eventually } from '../features/live/testing.js';
import { FIXTURE_PASSWORD } from './fixtures.js';
import { freePort } from './rgw-cluster.js';

/** Server processes of a test's own (apps/server/dist/main.js when built), each a separate instance. */
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
const mainJs = join(serverDir, 'dist/main.js');

/** The newest change of the server's or the domain's source, to tell whether dist/main.js is up to date. */
function newestSource(): number {
  let newest = 0;
  for (const dir of [join(serverDir, 'src'), join(serverDir, '../../packages/domain/src')]) {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      newest = Math.max(newest, statSync(join(dir, file)).mtimeMs);
    }
  }
  return newest;
}

/**
 * The built bundle when it is current (after `npm run build`); otherwise the same entry point from source, so
 * the test never proves an old build (the unit pass of `npm test` runs before the build).
 */
const serverCommand = (): string[] =>
  existsSync(mainJs) && statSync(mainJs).mtimeMs >= newestSource()
    ? [mainJs]
    : ['--import', 'tsx', join(serverDir, 'src/main.ts')];

export interface Instance {
  child: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; at: number }>;
}

/** Starts an instance on `env.PORT` or a free loopback port and waits until its /health answers 200. */
export async function startInstance(
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = Number(env.PORT) || (await freePort());
  const child = spawn(process.execPath, serverCommand(), {
    cwd: join(serverDir, '../..'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      DEMO: 'false',
      MASTER_KEY: 'b'.repeat(64),
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  await eventually(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200;
    } catch {
      return false;
    }
    // A server's start on a busy two-core machine (CI's other tiers beside it) has taken over 30 s.
  }, 45_000);
  return { child, port, exited };
}

export interface BrowserSession {
  cookie: string;
  csrf: string;
}

/** A browser's session over real HTTP at `base`: the session cookie and the CSRF token of the page served after sign-in. */
export async function signIn(base: string, email: string): Promise<BrowserSession> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const page = async (path: string) => {
    const response = await fetch(base + path, { headers: { accept: 'text/html', cookie: cookie() } });
    keep(response);
    return /<meta name="_csrf" content="([^"]*)"/.exec(await response.text())?.[1] ?? '';
  };
  const csrf = await page('/login');
  const signedIn = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', cookie: cookie() },
    body: new URLSearchParams({ username: email, password: FIXTURE_PASSWORD, _csrf: csrf }),
  });
  keep(signedIn);
  expect(signedIn.headers.get('location'), `sign-in of ${email}`).toBe('/');
  return { csrf: await page('/'), cookie: cookie() };
}
