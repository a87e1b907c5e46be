import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../../apps/server/src/features/auth/passwords.js';
import { sha256 } from '../../apps/server/src/features/auth/tokens.js';
import { createSecretBox } from '../../apps/server/src/secrets.js';
import { connect, copyInto, copyLine, databaseName, phase, recreateDatabase, seconds } from '../dashboard/common.js';
import { BENCH_MASTER_KEY, enrolment } from '../two-factor.js';
import { FLEET, machineToken, providerAdminEmail } from './common.js';

const OS = [
  ['LINUX', 'Debian GNU/Linux 12'],
  ['WINDOWS', 'Windows 11 Pro 23H2'],
  ['MAC', 'macOS 14.5'],
] as const;

/**
 * The schedule of the restart storm's task of machine `id`: every five minutes, a fifth of the machines each minute,
 * so that runs fall due during the storm without every agent reporting at once.
 */
export const fleetTaskCron = (id: number) => `${id % 5}-59/5 * * * *`;

/**
 * Drops and re-creates FLEET.databaseUrl, migrates it and loads `machines` machines and `admins` admins. The customers
 * allow provider machine control (the round trip's tree requests are the provider's), and the provider admins use
 * two-factor sign-in, as provider admins must (two-factor.ts). Machines 1..`tasks` get one backup task each (the
 * restart storm's runs), with the machine's id.
 */
export async function seedFleet(machines: number, admins: number, tasks = 0): Promise<void> {
  const url = FLEET.databaseUrl;
  const name = databaseName(url);
  const started = performance.now();
  const customers = Math.ceil(machines / FLEET.machinesPerCustomer);
  await recreateDatabase(url, name);
  const passwordHash = await hashPassword(FLEET.password);
  const client = await connect(url);
  try {
    await client.query('set synchronous_commit = off');
    await phase(
      `${customers} customers with a package each, ${machines} machines, ${admins} provider admins`,
      async () => {
        await client.query(`insert into storage_accounts (id, name, type, default_storage_account)
        values (1, 'Embedded storage', 'LOCAL', true)`);
        const ids = Array.from({ length: customers }, (_, i) => i + 1);
        await copyInto(
          client,
          'customers',
          ['id', 'company_name', 'status', 'first_payment_required', 'allow_provider_machine_control'],
          ids.map((id) => copyLine([id, `Fleet customer ${id}`, 'ACTIVE', false, true])),
        );
        await copyInto(
          client,
          'buckets',
          ['id', 'storage_account_id', 'name', 'managed', 'customer_id'],
          ids.map((id) => copyLine([id, 1, `fleet-c${id}`, true, id])),
        );
        await copyInto(
          client,
          'storage_locations',
          ['id', 'customer_id', 'bucket_id', 'default_for_customer'],
          ids.map((id) => copyLine([id, id, id, true])),
        );
        await copyInto(
          client,
          'backup_packages',
          [
            'id',
            'customer_id',
            'name',
            'status',
            'package_quota_size_in_bytes',
            'max_backup_size_per_machine_in_mbs',
            'storage_location_id',
          ],
          ids.map((id) => copyLine([id, id, 'Fleet package', 'ACTIVE', 10 * 1024 ** 4, 100 * 1024, id])),
        );
        await copyInto(
          client,
          'users',
          ['id', 'customer_id', 'email', 'first_name', 'surname', 'password_hash', 'role'],
          Array.from({ length: admins }, (_, i) =>
            copyLine([
              i + 1,
              null,
              providerAdminEmail(i + 1),
              'Fleet',
              `Admin ${i + 1}`,
              passwordHash,
              'ROLE_BOLT_ADMIN_USER',
            ]),
          ),
        );
        await copyInto(
          client,
          'user_mfa',
          ['user_id', 'secret_sealed', 'enabled_at'],
          Array.from({ length: admins }, (_, i) => {
            const row = enrolment(i + 1, providerAdminEmail(i + 1));
            return copyLine([row.userId, row.secretSealed, row.enabledAt]);
          }),
        );
        // Made and sealed on a machine's first connect: sealed here, so the connects measured are those of machines
        // that have connected before (the steady state). One password for all: sealing is not what is measured.
        const repositoryPassword = createSecretBox(BENCH_MASTER_KEY).encrypt('fleet-bench-repository-password');
        const rows: string[] = [];
        for (let id = 1; id <= machines; id++) {
          const customer = Math.ceil(id / FLEET.machinesPerCustomer);
          const [family, system] = OS[id % OS.length] ?? OS[0];
          rows.push(
            copyLine([
              id,
              customer,
              customer,
              `fleet-machine-${id}`,
              family,
              system,
              '1.0.0',
              'UTC',
              sha256(machineToken(id)),
              repositoryPassword,
            ]),
          );
        }
        await copyInto(
          client,
          'backup_machines',
          [
            'id',
            'customer_id',
            'backup_package_id',
            'name',
            'os_family',
            'operating_system',
            'desktop_client_version',
            'time_zone',
            'credential_hash',
            'repository_password_encrypted',
          ],
          rows,
        );
        if (tasks > 0)
          await copyInto(
            client,
            'backup_tasks',
            ['id', 'backup_machine_id', 'customer_id', 'backup_package_id', 'name', 'schedule_cron'],
            Array.from({ length: tasks }, (_, i) => {
              const customer = Math.ceil((i + 1) / FLEET.machinesPerCustomer);
              return copyLine([i + 1, i + 1, customer, customer, 'Fleet backup', fleetTaskCron(i + 1)]);
            }),
          );
        for (const table of [
          'storage_accounts',
          'customers',
          'buckets',
          'storage_locations',
          'backup_packages',
          'users',
          'backup_tasks',
        ]) {
          await client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
        }
        await client.query(
          `select setval(pg_get_serial_sequence('backup_machines', 'id'), (select max(id) from backup_machines))`,
        );
      },
    );
    await phase('vacuum analyze', () => client.query('vacuum (analyze)'));
  } finally {
    await client.end();
  }
  console.log(`Seeded ${name} in ${seconds(performance.now() - started)}.`);
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const machines = Number(process.argv[2] ?? Math.max(FLEET.agents, FLEET.roundTripAgents));
  const admins = Number(process.argv[3] ?? FLEET.browsers);
  seedFleet(machines, admins).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
