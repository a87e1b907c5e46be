import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '@portal/domain';
import { logFiles, packageMigrations, realtimeCommandOutput, realtimeCommands } from '../db/schema/index.js';
import { type CustomerInfo, customerNamed, type SeedContext, zip } from './context.js';
import type { SavedMachine } from './machines.js';

/** Contoso's uploaded agent logs and restic diagnostics, and Tailspin Toys' finished package migration. */
export async function insertDiagnostics(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
  machines: readonly SavedMachine[],
  migrationSourceLocationId: number,
): Promise<void> {
  const rng = ctx.rng;
  const find = (name: string) => machines.find((m) => m.spec.name === name);
  const laptop = find('CONTOSO-LT-014');
  const server = find('CONTOSO-FS-01');
  if (!laptop || !server) throw new Error('Contoso machines missing');

  const logTime = ctx.ago(3 * HOUR_MS);
  const logs = [
    {
      machine: laptop,
      fileName: 'agent.log',
      lines: [
        `INFO  agent ${laptop.version} starting`,
        'INFO  connected to portal',
        'INFO  3 tasks scheduled',
        'WARN  skipped locked file NTUSER.DAT',
      ],
    },
    {
      machine: laptop,
      fileName: 'updater.log',
      lines: ['INFO  checking for updates', `INFO  agent is up to date (${laptop.version})`],
    },
    {
      machine: server,
      fileName: 'agent.log',
      lines: [
        `INFO  agent ${server.version} starting`,
        'INFO  connected to portal',
        'ERROR run of Finance failed: repository is already locked',
        'INFO  retrying at next schedule',
      ],
    },
    {
      machine: server,
      fileName: 'restic-last-run.log',
      lines: [
        'repository 3f9c2a1e opened (version 2, compression level auto)',
        'using parent snapshot 5be1c0d2',
        'Files: 1204 new, 318 changed, 90211 unmodified',
        'Added to the repository: 1.204 GiB (1.002 GiB stored)',
      ],
    },
  ];
  await ctx.tx.insert(logFiles).values(
    logs.map((l) => {
      const content = `${l.lines.map((line, i) => `${new Date(logTime.getTime() - (l.lines.length - i) * MINUTE_MS).toISOString()} ${line}`).join('\n')}\n`;
      return {
        backupMachineId: l.machine.id,
        fileName: l.fileName,
        lastModified: logTime,
        content,
        sizeBytes: Buffer.byteLength(content),
        uploadedAt: ctx.ago(2 * HOUR_MS),
      };
    }),
  );

  // Restic diagnostics run earlier on the file server.
  const diagnosticStart = ctx.ago(26 * HOUR_MS);
  const commandRows: (typeof realtimeCommands.$inferInsert)[] = [
    {
      commandId: `demo-${rng.hex(8)}-snapshots`,
      commandType: 'RESTIC_COMMAND',
      backupMachineId: server.id,
      baseCommand: 'snapshots',
      commandArguments: [],
      commandFlags: ['--compact'],
      timeStarted: diagnosticStart,
      timeFinished: new Date(diagnosticStart.getTime() + 4 * SECOND_MS),
      exitCode: 0,
      resultCode: 'SUCCESS',
    },
    {
      commandId: `demo-${rng.hex(8)}-check`,
      commandType: 'RESTIC_COMMAND',
      backupMachineId: server.id,
      baseCommand: 'check',
      commandArguments: [],
      commandFlags: ['--read-data-subset=1%'],
      timeStarted: new Date(diagnosticStart.getTime() + MINUTE_MS),
      timeFinished: new Date(diagnosticStart.getTime() + 200 * SECOND_MS),
      exitCode: 0,
      resultCode: 'SUCCESS',
    },
  ];

  // Tailspin Toys moved its package to a new bucket three weeks ago.
  const tailspin = customerNamed(customers, 'Tailspin Toys');
  const moved = tailspin.packages[0];
  let migrationOutput: string[][] = [];
  if (moved && tailspin.locationId && migrationSourceLocationId) {
    const created = ctx.ago(21 * DAY_MS);
    const [migration] = await ctx.tx
      .insert(packageMigrations)
      .values({
        backupPackageId: moved.id,
        sourceStorageLocationId: migrationSourceLocationId,
        destinationStorageLocationId: tailspin.locationId,
        status: 'FINAL_SYNC_FINISHED_SUCCESS',
        finalized: true,
        createdAt: created,
        finalizedAt: new Date(created.getTime() + 26 * HOUR_MS),
        // Its source copies were removed after it, as the migration job does.
        sourceRemovedAt: new Date(created.getTime() + 27 * HOUR_MS),
      })
      .returning({ id: packageMigrations.id });
    if (migration) {
      for (const [syncType, offset] of [
        ['SYNC', 10 * MINUTE_MS],
        ['FINAL_SYNC', 25 * HOUR_MS],
      ] as const) {
        const start = new Date(created.getTime() + offset);
        commandRows.push({
          commandId: `demo-${rng.hex(8)}-${syncType.toLowerCase()}`,
          commandType: 'RCLONE_COMMAND_SEQUENCE',
          packageMigrationId: migration.id,
          syncType,
          baseCommand: 'sync',
          commandArguments: ['source:', 'destination:'],
          commandFlags: ['--checksum', '--transfers=8'],
          timeStarted: start,
          timeFinished: new Date(start.getTime() + (syncType === 'SYNC' ? 52 : 6) * MINUTE_MS),
          exitCode: 0,
          resultCode: 'SUCCESS',
        });
      }
      migrationOutput = [
        [
          'Transferred: 38.214 GiB / 38.214 GiB, 100%, 12.4 MiB/s',
          'Checks: 0 / 0',
          'Transferred: 8812 / 8812, 100%',
          'Elapsed time: 52m11.4s',
        ],
        [
          'Transferred: 212.5 MiB / 212.5 MiB, 100%, 8.1 MiB/s',
          'Checks: 8812 / 8812, 100%',
          'Transferred: 41 / 41, 100%',
          'Elapsed time: 5m48.0s',
        ],
      ];
    }
  }
  const commandIds = await ctx.tx.insert(realtimeCommands).values(commandRows).returning({ id: realtimeCommands.id });
  const outputs = [
    [
      'ID        Time                 Host           Tags        Paths',
      '5be1c0d2  2025-01-10 01:15:02  CONTOSO-FS-01  task-finance  D:\\Shares\\Finance',
      '1 snapshots',
    ],
    [
      'using temporary cache in C:\\Windows\\Temp\\restic-check-cache',
      'load indexes',
      'check all packs',
      'check snapshots, trees and blobs',
      'read 1.0% of data packs',
      'no errors were found',
    ],
    ...migrationOutput,
  ];
  const outputRows = zip(commandIds, outputs).flatMap(([{ id }, lines]) =>
    lines.map((line, seq) => ({ commandId: id, seq, line })),
  );
  if (outputRows.length > 0) await ctx.tx.insert(realtimeCommandOutput).values(outputRows);
}
