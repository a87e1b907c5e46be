import { SIGN_UP_THROTTLE } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, portalAddress } from './config.js';

const base = { MASTER_KEY: 'b'.repeat(64) };

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('configuration (issue #2)', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig(base);
    expect(config.port).toBe(8080);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisChannel).toBe('portal:live');
    expect(config.logLevel).toBe('info');
    expect(config.sessionIdleMinutes).toBe(30);
    expect(config.secureCookies).toBe(false);
    expect(config.demo).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ REDIS_CHANNEL: 'portal live' }, 'REDIS_CHANNEL'],
    [{ MASTER_KEY: 'short' }, 'MASTER_KEY'],
    [{ PUBLIC_URL: 'portal.example.com' }, 'PUBLIC_URL'],
    [{ PROVIDER_SITE_URL: 'javascript:alert(1)' }, 'PROVIDER_SITE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES'],
    [{ SESSION_CACHE_MS: '5s' }, 'SESSION_CACHE_MS'],
  ])('stops with one line naming the variable for %o', (env, name) => {
    const message = errorOf({ ...base, ...env });
    expect(message).toMatch(new RegExp(`^Configuration error: ${name} `));
    expect(message).not.toContain('\n');
  });

  it('needs a master key outside demo mode', () => {
    expect(errorOf({})).toMatch(/^Configuration error: MASTER_KEY /);
    expect(loadConfig({ DEMO: 'true' }).masterKey).toBeUndefined();
  });

  it('links people to PUBLIC_URL, else to the address npm start prints (http://localhost:PORT)', () => {
    expect(portalAddress(loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:18080' }))).toBe('http://127.0.0.1:18080');
    expect(portalAddress(loadConfig({ ...base, PORT: '9090' }))).toBe('http://localhost:9090');
  });

  it('sets secure cookies behind an https public URL', () => {
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://backup.example.com' }).secureCookies).toBe(true);
  });

  it('believes X-Forwarded-For from private proxies only behind a public URL, or from whom TRUST_PROXY names', () => {
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://backup.example.com' }).trustProxy).toBe(
      'loopback,linklocal,uniquelocal',
    );
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.5, 192.168.0.0/16, ::1' }).trustProxy).toBe(
      '10.0.0.5,192.168.0.0/16,::1',
    );
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(errorOf({ ...base, TRUST_PROXY: 'proxy.example.com' })).toMatch(/TRUST_PROXY/);
    expect(errorOf({ ...base, TRUST_PROXY: '10.0.0.0/40' })).toMatch(/TRUST_PROXY/);
  });
});

describe('REALTIME_COMMAND_ALLOW_LIST (issue #5)', () => {
  it('defaults to the read-only restic commands and reads a comma-separated list', () => {
    expect(loadConfig(base).realtimeCommandAllowList).toContain('snapshots');
    expect(loadConfig(base).realtimeCommandAllowList).not.toContain('forget');
    expect(
      loadConfig({ ...base, REALTIME_COMMAND_ALLOW_LIST: ' snapshots, check,,snapshots ' }).realtimeCommandAllowList,
    ).toEqual(['snapshots', 'check']);
  });

  it('refuses a list that is not restic sub-commands', () => {
    expect(errorOf({ ...base, REALTIME_COMMAND_ALLOW_LIST: 'snapshots,rm -rf' })).toMatch(
      /REALTIME_COMMAND_ALLOW_LIST/,
    );
  });

  it('refuses a sub-command the domain does not allow: the list narrows the domain’s, never widens it (issue 29)', () => {
    expect(errorOf({ ...base, REALTIME_COMMAND_ALLOW_LIST: 'snapshots,forget' })).toMatch(
      /REALTIME_COMMAND_ALLOW_LIST/,
    );
  });
});

describe('SIGNUP_LIMIT_PER_ADDRESS (issue #6)', () => {
  it('defaults to the domain throttle and reads a positive whole number', () => {
    expect(loadConfig(base).signUpLimitPerAddress).toBe(SIGN_UP_THROTTLE.perAddress);
    expect(loadConfig({ ...base, SIGNUP_LIMIT_PER_ADDRESS: '50' }).signUpLimitPerAddress).toBe(50);
    expect(errorOf({ ...base, SIGNUP_LIMIT_PER_ADDRESS: '0' })).toMatch(
      /^Configuration error: SIGNUP_LIMIT_PER_ADDRESS /,
    );
  });

  it('keeps 10 PostgreSQL connections per instance unless DATABASE_POOL_SIZE says how many (1-1000, issue 33)', () => {
    expect(loadConfig(base).databasePoolSize).toBe(10);
    expect(loadConfig({ ...base, DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const wrong of ['0', '1001', 'many']) {
      expect(errorOf({ ...base, DATABASE_POOL_SIZE: wrong })).toMatch(/^Configuration error: DATABASE_POOL_SIZE /);
    }
  });
});

describe('ALLOW_PRIVATE_ENDPOINTS (issue 16)', () => {
  it('is off unless set to true, and refuses other values', () => {
    expect(loadConfig(base).allowPrivateEndpoints).toBe(false);
    expect(loadConfig({ ...base, ALLOW_PRIVATE_ENDPOINTS: 'false' }).allowPrivateEndpoints).toBe(false);
    expect(loadConfig({ ...base, ALLOW_PRIVATE_ENDPOINTS: 'true' }).allowPrivateEndpoints).toBe(true);
    expect(errorOf({ ...base, ALLOW_PRIVATE_ENDPOINTS: 'yes' })).toMatch(
      /^Configuration error: ALLOW_PRIVATE_ENDPOINTS /,
    );
  });
  it('is on by default in demo mode, whose billing server listens on loopback (issue 18), unless set to false', () => {
    expect(loadConfig({ ...base, DEMO: 'true' }).allowPrivateEndpoints).toBe(true);
    expect(loadConfig({ ...base, DEMO: 'true', ALLOW_PRIVATE_ENDPOINTS: 'false' }).allowPrivateEndpoints).toBe(false);
  });
});
