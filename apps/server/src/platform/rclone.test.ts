import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderAccess } from '../storage/provider.js';
import { RCLONE_FLAGS, rcloneRemotes } from './rclone.js';

const s3 = (place: string, key: string): FolderAccess => ({
  resticRepository: `s3:http://127.0.0.1:7480/${place}`,
  rclonePath: `:s3:${place}`,
  env: {
    AWS_ACCESS_KEY_ID: key,
    RCLONE_S3_ACCESS_KEY_ID: key,
    RCLONE_S3_SECRET_ACCESS_KEY: `${key}-secret`,
    RCLONE_S3_ENDPOINT: 'http://127.0.0.1:7480',
  },
});

describe('rclone remotes of a migration', () => {
  it('gives each side a named remote of its own, so two keys do not clash, and leaves restic’s variables out', () => {
    const { sourcePath, destinationPath, env } = rcloneRemotes(s3('old/sub', 'AKSRC'), s3('new', 'AKDST'));
    expect([sourcePath, destinationPath]).toEqual(['src:old/sub', 'dst:new']);
    expect(env).toMatchObject({
      RCLONE_CONFIG_SRC_TYPE: 's3',
      RCLONE_CONFIG_SRC_ACCESS_KEY_ID: 'AKSRC',
      RCLONE_CONFIG_SRC_SECRET_ACCESS_KEY: 'AKSRC-secret',
      RCLONE_CONFIG_DST_TYPE: 's3',
      RCLONE_CONFIG_DST_ACCESS_KEY_ID: 'AKDST',
    });
    expect(env.AWS_ACCESS_KEY_ID).toBe(process.env.AWS_ACCESS_KEY_ID);
    expect(env.RCLONE_S3_ACCESS_KEY_ID).toBe(process.env.RCLONE_S3_ACCESS_KEY_ID);
    expect(env.AWS_CA_BUNDLE).toBeUndefined();
  });

  it('runs with the real rclone: on-the-fly local remotes and plain paths alike', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'portal-rclone-'));
    try {
      mkdirSync(join(tmp, 'a', '7'), { recursive: true });
      writeFileSync(join(tmp, 'a', '7', 'config'), 'repository');
      const local = (dir: string): FolderAccess => ({ resticRepository: dir, rclonePath: `:local:${dir}`, env: {} });
      const plain = (dir: string): FolderAccess => ({ resticRepository: dir, rclonePath: dir, env: {} });
      for (const [to, side] of [
        [join(tmp, 'b'), local],
        [join(tmp, 'c'), plain],
      ] as const) {
        const remotes = rcloneRemotes(local(join(tmp, 'a')), side(to));
        execFileSync('rclone', ['sync', remotes.sourcePath, remotes.destinationPath, ...RCLONE_FLAGS], {
          env: remotes.env,
          stdio: 'ignore',
        });
        expect(readFileSync(join(to, '7', 'config'), 'utf8')).toBe('repository');
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
