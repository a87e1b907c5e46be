import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { TAMPERING_TEXTS } from '@portal/domain';
import { signIn, signOut } from './helpers';
import { test } from './machine';
import { recordSecret } from './secrets';
import { backUpSamples, expectAttackReported, machineRepository, resticAsMachine } from './tampering';

/** What the agent keeps on the machine, and so what ransomware there can read: its credential and repository. */
function machineSecrets(config: string, stateDir: string) {
  const { machineId, token } = JSON.parse(readFileSync(config, 'utf8')) as { machineId: number; token: string };
  const repository = machineRepository(stateDir);
  const address = /^rest:(https?:\/\/.*?)\/?$/.exec(repository.repository)?.[1];
  if (!address) throw new Error(`not a REST repository: ${repository.repository}`);
  // The log check (secrets-in-log.spec.ts, which knows the repository passwords already) proves the refused
  // requests left the machine's credential out of the server's log.
  recordSecret(token);
  const authorization = `Basic ${Buffer.from(`${machineId}:${token}`).toString('base64')}`;
  /** One request to the repository's REST backend with the machine's own credential. */
  const call = (method: string, path: string, body?: string) =>
    fetch(`${address}/${path}`, {
      method,
      headers: {
        authorization,
        accept: 'application/vnd.x.restic.rest.v2',
        'content-type': 'application/octet-stream',
      },
      ...(body ? { body } : {}),
    });
  /** `restic` with the machine's repository, credential and password, as the agent runs it. */
  const restic = (args: string[]) =>
    resticAsMachine(
      repository,
      args,
      repository.repository.replace('://', `://${machineId}:${encodeURIComponent(token)}@`),
    );
  return { call, restic };
}

/**
 * Immutability, proven hostile (issue 32 item 6): once the shared machine has a backup, the journey acts as
 * ransomware on it with the machine's own credential and repository password (read where the agent keeps them),
 * straight against the portal's REST backend: deleting a data pack, a snapshot, a key and the config, and replacing
 * a pack with other content. Every attempt is refused (403), `restic check --read-data` still passes, and the provider
 * admin finds the attempt on the audit trail (the machine named) and one alert mail for the whole burst.
 * (tampering-s3.spec.ts does the same on S3, in Ceph RGW.)
 */
test('ransomware with a machine’s own key cannot delete or replace its backups; the provider sees the attack', async ({
  page,
  machineDir: dir,
  sharedMachine,
}) => {
  test.setTimeout(90_000);
  const { machineId, name } = sharedMachine;
  await signIn(page, sharedMachine.owner);
  await backUpSamples(page, machineId, dir, 'tampering-e2e');
  await signOut(page);

  // The attack, with what the agent keeps on the machine.
  const { call, restic } = machineSecrets(sharedMachine.config, sharedMachine.stateDir);
  const first = async (type: string) => {
    const listed = await call('GET', `${type}/`);
    expect(listed.status).toBe(200);
    const [object] = (await listed.json()) as Array<{ name: string }>;
    if (!object) throw new Error(`no ${type} object`);
    return object.name;
  };
  const pack = await first('data');
  const snapshot = await first('snapshots');
  const key = await first('keys');
  const attempts = [
    () => call('DELETE', `data/${pack}`),
    () => call('DELETE', `snapshots/${snapshot}`),
    () => call('DELETE', `keys/${key}`),
    () => call('DELETE', 'config'),
    () => call('POST', `data/${pack}`, 'encrypted by ransomware'),
  ];
  const answers = [];
  for (const attempt of attempts) {
    const answer = await attempt();
    answers.push(`${answer.status} ${(await answer.text()).trim()}`);
  }
  expect(answers.map((a) => a.slice(0, 3))).toEqual(['403', '403', '403', '403', '403']);
  expect(answers[4]).toBe(`403 ${TAMPERING_TEXTS.overwriteRefused}`);

  // The repository is whole: every object there, every pack's content read and checked (no lock: the agent may be
  // indexing the snapshot meanwhile).
  const check = restic(['--no-lock', 'check', '--read-data']);
  expect(check.status, check.stderr).toBe(0);
  expect(check.stdout).toContain('no errors were found');

  // The provider admin: the attempt on the audit trail, the machine named; one alert for the burst.
  await signIn(page, 'provider-admin@demo.test');
  await expectAttackReported(page, { machineId, name }, 'The embedded storage refused it; the backups are unchanged.');
});
