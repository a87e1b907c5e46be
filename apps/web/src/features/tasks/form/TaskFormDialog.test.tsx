import {
  fieldRequired,
  fieldTooLong,
  fieldTooShort,
  MESSAGES,
  TASK_FORM_LABELS,
  TASK_FORM_TEXTS,
} from '@portal/domain';
import { makeTaskDefinition } from '@portal/domain/testing/task-definition';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../app/testing';
import { type CommandAnswer, fakeLiveChannel, type SentFrame } from '../../../testing/liveChannel';
import { ToastHost } from '../../../ui';
import { AddTaskButton, EditTaskButton } from './TaskFormButtons';
import { fakeMachineServer } from './testing';

const L = TASK_FORM_LABELS;
const TEXT = TASK_FORM_TEXTS;
const T = MESSAGES.task;

// Typing into a dialog of this size takes a few seconds on the shared CPU.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The machine saves what it is sent unless told otherwise. */
const saves = (): CommandAnswer => ({ success: true });

function openAdd(answer: (frame: SentFrame) => CommandAnswer = saves, server = fakeMachineServer()) {
  const live = fakeLiveChannel({ answer });
  const onSaved = vi.fn();
  const events = renderSignedIn(
    <live.Provider>
      <AddTaskButton machineId={5} osFamily="LINUX" timeZone="UTC" onSaved={onSaved} animation={false} />
      <ToastHost />
    </live.Provider>,
  );
  return { events, onSaved, live, server };
}

const dialog = () => screen.getByTestId('task-form-dialog');
const tree = () => within(screen.getByTestId('tree-picker'));

async function start(setup: ReturnType<typeof openAdd>) {
  await setup.events.click(screen.getByRole('button', { name: TEXT.addButton }));
  // The dialog's code loads when it first opens.
  await screen.findByTestId('tree-picker');
  await tree().findByLabelText('home');
  return setup;
}

/** Ticks a tree row's checkbox and waits past the 250 ms debounce until the tree took it. */
async function tick(events: ReturnType<typeof openAdd>['events'], name: string, checked = true) {
  await events.click(tree().getByLabelText(name));
  await waitFor(() => expect(tree().getByLabelText(name)).toHaveProperty('checked', checked));
  await new Promise((resolve) => setTimeout(resolve, 300));
}

async function fillValid(events: ReturnType<typeof openAdd>['events']) {
  await events.type(screen.getByLabelText(L.name), 'Documents');
  await events.type(screen.getByLabelText('Expression'), '0 2 * * *');
  await tick(events, 'home');
}

const save = (events: ReturnType<typeof openAdd>['events']) =>
  events.click(within(dialog()).getByRole('button', { name: TEXT.save }));

describe('AddTaskButton: validation (002 §5.6)', () => {
  it('shows the required messages of name, schedule and items, and sends nothing', async () => {
    const { events, live } = await start(openAdd());
    await save(events);
    expect(await screen.findByText(fieldRequired(L.name))).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.task.scheduleRequired)).toBeInTheDocument();
    expect(screen.getByText(T.itemsRequired)).toBeInTheDocument();
    expect(live.sent).toHaveLength(0);
  });

  it('checks the name length: 2 to 50 characters', async () => {
    const { events } = await start(openAdd());
    await events.type(screen.getByLabelText(L.name), 'a');
    await save(events);
    expect(await screen.findByText(fieldTooShort(L.name, 2))).toBeInTheDocument();
    await events.clear(screen.getByLabelText(L.name));
    await events.click(screen.getByLabelText(L.name));
    await events.paste('x'.repeat(51));
    expect(await screen.findByText(fieldTooLong(L.name, 50))).toBeInTheDocument();
  });

  it("refuses the picker's untouched every-minute default as no schedule", async () => {
    const { events } = await start(openAdd());
    await events.type(screen.getByLabelText('Expression'), '* * * * *');
    await save(events);
    expect(await screen.findByText(MESSAGES.task.scheduleRequired)).toBeInTheDocument();
  });

  it("checks the snapshots kept: 'Must be between 1 and 100000.'", async () => {
    const { events } = await start(openAdd());
    await fillValid(events);
    await events.click(screen.getByLabelText(TEXT.snapshotsUnlimited));
    const keep = screen.getByLabelText(L.numberOfSnapshotsToKeep);
    await events.clear(keep);
    await events.type(keep, '00000');
    expect(keep).toHaveValue('1000000');
    await save(events);
    expect(await screen.findByText(T.snapshotsToKeepRange)).toBeInTheDocument();
  });

  it("checks the bandwidth limit: 'Must be between 1 and 100,000,000.'", async () => {
    const { events } = await start(openAdd());
    await fillValid(events);
    await events.click(screen.getByLabelText(TEXT.uploadBandwidthUnlimited));
    const limit = screen.getByLabelText(L.uploadBandwidthLimit);
    await events.type(limit, '0', { initialSelectionStart: 0, initialSelectionEnd: 2 });
    expect(limit).toHaveValue('0');
    await save(events);
    expect(await screen.findByText(T.uploadBandwidthRange)).toBeInTheDocument();
  });

  it("checks the pruning delay of a cPanel task: 'Must be between 1 and 100.'", async () => {
    const { events } = await start(openAdd());
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    await events.click(screen.getByLabelText(TEXT.pruningEnabled));
    const count = screen.getByLabelText(L.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems);
    await events.clear(count);
    await events.type(count, '101');
    await save(events);
    expect(await screen.findByText(T.pruningRange)).toBeInTheDocument();
  });

  it("asks the machine for the tree of the task's type: a cPanel task's accounts (issue 14)", async () => {
    const { events, server } = await start(openAdd());
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    const treeRequests = () => server.to('POST', '/backupmachines/5/treeitems').map((r) => r.body);
    await waitFor(() => expect(treeRequests()).toHaveLength(2));
    expect(treeRequests()).toMatchObject([
      { path: '', type: 'FILES_AND_FOLDERS' },
      { path: '', type: 'CPANEL' },
    ]);
  });

  it("asks for the seed disk path: 'Seed disk path must be chosen.', then takes the folder chosen", async () => {
    const { events, live } = await start(openAdd());
    await fillValid(events);
    await events.click(screen.getByLabelText(TEXT.createSeed));
    await save(events);
    expect(await screen.findByText(T.seedPathRequired)).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: TEXT.chooseSeedPath }));
    const picker = within(await screen.findByTestId('seed-path-dialog'));
    await events.click(await picker.findByLabelText('srv'));
    await waitFor(() => expect(picker.getByRole('button', { name: TEXT.seedPathSelect })).toBeEnabled());
    await events.click(picker.getByRole('button', { name: TEXT.seedPathSelect }));
    await waitFor(() => expect(screen.getByLabelText(L.pathToSeedDisk)).toHaveValue('/srv'));
    expect(screen.queryByText(T.seedPathRequired)).not.toBeInTheDocument();
    // Turning create-seed on again clears the path (002 §4.3).
    await events.click(screen.getByLabelText(TEXT.createSeed));
    await events.click(screen.getByLabelText(TEXT.createSeed));
    expect(screen.getByLabelText(L.pathToSeedDisk)).toHaveValue('');
    expect(live.sent).toHaveLength(0);
  });
});

describe('AddTaskButton: defaults and interplay (002 §4.3)', () => {
  it('starts from the defaults: files and folders, unlimited snapshots, maximum bandwidth, empty schedule, sync off', async () => {
    const { events } = await start(openAdd());
    expect(screen.getByLabelText(L.type)).toHaveValue('FILES_AND_FOLDERS');
    expect(screen.getByLabelText(TEXT.snapshotsEnabled)).toBeChecked();
    expect(screen.getByLabelText(TEXT.snapshotsUnlimited)).toBeChecked();
    expect(screen.getByLabelText(TEXT.uploadBandwidthUnlimited)).toBeChecked();
    expect(screen.getByLabelText('Expression')).toHaveValue('');
    expect(screen.getByLabelText(TEXT.syncDeletions)).not.toBeChecked();
    // Seeding shows when adding files and folders; pruning and new accounts only for cPanel.
    expect(screen.getByLabelText(TEXT.createSeed)).toBeInTheDocument();
    expect(screen.queryByLabelText(TEXT.pruningEnabled)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(TEXT.backupAnyNewAvailableItems)).not.toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    expect(screen.queryByLabelText(TEXT.createSeed)).not.toBeInTheDocument();
    expect(screen.queryByTestId('task-snapshots')).not.toBeInTheDocument();
    expect(screen.queryByLabelText(TEXT.showFiles)).not.toBeInTheDocument();
    expect(screen.getByLabelText(TEXT.pruningEnabled)).not.toBeChecked();
    expect(screen.getByLabelText(TEXT.backupAnyNewAvailableItems)).toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText(L.type), 'DIRECT_ADMIN');
    expect(screen.queryByLabelText(TEXT.pruningEnabled)).not.toBeInTheDocument();
  });

  it('turning snapshots on shows the frequency warning and sets unlimited; off sends 0 kept', async () => {
    const { events, live } = await start(openAdd());
    await events.click(screen.getByLabelText(TEXT.snapshotsUnlimited));
    expect(screen.getByLabelText(L.numberOfSnapshotsToKeep)).toHaveValue('10');
    await events.click(screen.getByLabelText(TEXT.snapshotsEnabled));
    expect(screen.queryByLabelText(TEXT.snapshotsUnlimited)).not.toBeInTheDocument();
    await events.click(screen.getByLabelText(TEXT.snapshotsEnabled));
    const info = await screen.findByTestId('snapshot-frequency-info');
    expect(within(info).getByText(T.snapshotFrequencyWarning)).toBeInTheDocument();
    await events.click(within(info).getByRole('button', { name: TEXT.ok }));
    expect(screen.getByLabelText(TEXT.snapshotsUnlimited)).toBeChecked();
    await events.click(screen.getByLabelText(TEXT.snapshotsEnabled));
    await fillValid(events);
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(1));
    expect(live.sent[0]?.body).toMatchObject({ snapshotsEnabled: false, numberOfSnapshotsToKeep: 0 });
  });

  it('an emptied keep count or bandwidth input goes back to 10; limiting bandwidth starts at 10 KB/s', async () => {
    const { events } = await start(openAdd());
    await events.click(screen.getByLabelText(TEXT.snapshotsUnlimited));
    const keep = screen.getByLabelText(L.numberOfSnapshotsToKeep);
    await events.type(keep, '5');
    expect(keep).toHaveValue('105');
    await events.clear(keep);
    expect(keep).toHaveValue('10');
    await events.click(screen.getByLabelText(TEXT.uploadBandwidthUnlimited));
    const limit = screen.getByLabelText(L.uploadBandwidthLimit);
    expect(limit).toHaveValue('10');
    expect(screen.getByLabelText(L.uploadBandwidthLimitUnit)).toHaveValue('KILO_BYTES_PER_SECOND');
    await events.clear(limit);
    expect(limit).toHaveValue('10');
  });

  it('turning sync deletions on asks first; off does not', async () => {
    const { events } = await start(openAdd());
    await events.click(screen.getByLabelText(TEXT.syncDeletions));
    const confirm = await screen.findByTestId('sync-deletions-confirm');
    expect(within(confirm).getByText(TEXT.syncDeletionsInfo)).toBeInTheDocument();
    await events.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByLabelText(TEXT.syncDeletions)).not.toBeChecked();
    await events.click(screen.getByLabelText(TEXT.syncDeletions));
    await events.click(
      within(await screen.findByTestId('sync-deletions-confirm')).getByRole('button', {
        name: TEXT.syncDeletionsConfirm,
      }),
    );
    await waitFor(() => expect(screen.getByLabelText(TEXT.syncDeletions)).toBeChecked());
    await events.click(screen.getByLabelText(TEXT.syncDeletions));
    expect(screen.getByLabelText(TEXT.syncDeletions)).not.toBeChecked();
    expect(screen.queryByTestId('sync-deletions-confirm')).not.toBeInTheDocument();
  });

  it('enabling pruning sets the 3-month default', async () => {
    const { events } = await start(openAdd());
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    await events.click(screen.getByLabelText(TEXT.pruningEnabled));
    expect(screen.getByLabelText(L.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems)).toHaveValue('3');
    expect(screen.getByLabelText(L.timeUnitForBackupItemPruning)).toHaveValue('MONTH');
  });

  it('resets to the defaults on close', async () => {
    const { events } = await start(openAdd());
    await events.type(screen.getByLabelText(L.name), 'Temporary');
    await events.type(screen.getByLabelText('Expression'), '0 3 * * *');
    await events.click(screen.getByLabelText(TEXT.snapshotsUnlimited));
    await events.click(screen.getByLabelText(TEXT.uploadBandwidthUnlimited));
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    await events.click(screen.getByLabelText(TEXT.pruningEnabled));
    await events.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('task-form-dialog')).not.toBeInTheDocument());
    await start({ events } as ReturnType<typeof openAdd>);
    expect(screen.getByLabelText(L.name)).toHaveValue('');
    expect(screen.getByLabelText(L.type)).toHaveValue('FILES_AND_FOLDERS');
    expect(screen.getByLabelText('Expression')).toHaveValue('');
    expect(screen.getByLabelText(TEXT.snapshotsUnlimited)).toBeChecked();
    expect(screen.getByLabelText(TEXT.uploadBandwidthUnlimited)).toBeChecked();
    expect(screen.getByLabelText(TEXT.syncDeletions)).not.toBeChecked();
    await events.selectOptions(screen.getByLabelText(L.type), 'CPANEL');
    expect(screen.getByLabelText(TEXT.pruningEnabled)).not.toBeChecked();
  });
});

describe('AddTaskButton: saving over the live channel (002 §4.3, §7.8, §8)', () => {
  it("sends newtask with a request id and the payload; 'Backup task saved', closes, tells the parent", async () => {
    const { events, live, onSaved } = await start(openAdd());
    await fillValid(events);
    await events.click(
      within(screen.getByTestId('exclusions-editor')).getByRole('button', { name: TEXT.addExclusion }),
    );
    const entry = within(await screen.findByTestId('exclusion-dialog'));
    await events.type(entry.getByLabelText(TEXT.exclusionLabel), '*.tmp');
    await events.click(entry.getByRole('button', { name: TEXT.addExclusion }));
    await save(events);
    expect(await screen.findByText(T.saved)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('task-form-dialog')).not.toBeInTheDocument());
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(live.sent).toHaveLength(1);
    const [frame] = live.sent;
    expect(frame?.destination).toBe('/ws/inbound/backupmachines/5/newtask');
    expect(frame?.body).toMatchObject({
      id: null,
      name: 'Documents',
      type: 'FILES_AND_FOLDERS',
      backupScheduleDefinition: '0 2 * * *',
      backupItems: [{ path: '/home', name: 'home', type: 'DIRECTORY', missing: false }],
      exclusions: ['*.tmp'],
      snapshotsEnabled: true,
      numberOfSnapshotsToKeep: -1,
      uploadBandwidthUnlimited: true,
      uploadBandwidthLimit: -1,
      syncDeletions: false,
      createSeed: false,
      extraTaskSettings: { numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1 },
    });
    expect(typeof frame?.body.createOrUpdateTaskRequestId).toBe('string');
  });

  it("shows a refusal's messages in the dialog and sends a new request id next time", async () => {
    const { events, live, onSaved } = await start(
      openAdd(() => ({
        success: false,
        messages: [{ type: 'ERROR', fieldName: '', message: 'Task name already used', responseCode: 'ERROR' }],
      })),
    );
    await fillValid(events);
    await save(events);
    expect(await within(dialog()).findByText('Task name already used')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(2));
    expect(live.sent[1]?.body.createOrUpdateTaskRequestId).not.toBe(live.sent[0]?.body.createOrUpdateTaskRequestId);
  });

  it("shows the server's at-once answer for an offline machine without waiting for the time-out", async () => {
    const offline = MESSAGES.liveChannel.machineOffline;
    const { events } = await start(
      openAdd(() => ({
        success: false,
        messages: [{ type: 'ERROR', fieldName: '', message: offline, responseCode: 'ERROR' }],
      })),
    );
    await fillValid(events);
    await save(events);
    expect(await within(dialog()).findByText(offline, {}, { timeout: 1_000 })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.liveChannel.backupMachineCommunicationError)).not.toBeInTheDocument();
  });

  it("warns 'Backup task saved but some errors occurred' for a success with messages, and tells the parent", async () => {
    const { events, onSaved } = await start(
      openAdd(() => ({
        success: true,
        messages: [{ type: 'WARNING', fieldName: '', message: 'Seed disk is slow', responseCode: 'OK' }],
      })),
    );
    await fillValid(events);
    await save(events);
    expect(await screen.findByText(T.savedWithErrors)).toBeInTheDocument();
    expect(within(dialog()).getByText('Seed disk is slow')).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it("says 'Error in communicating with backup machine.' after 20 s without a reply, and retries with the same id", async () => {
    const { events, live, onSaved } = await start(openAdd(() => 'silent'));
    await fillValid(events);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(1));
    expect(screen.queryByText(MESSAGES.liveChannel.backupMachineCommunicationError)).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(20_000);
    });
    expect(await screen.findByText(MESSAGES.liveChannel.backupMachineCommunicationError)).toBeInTheDocument();
    expect(screen.getByTestId('task-form-dialog')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(2));
    expect(live.sent[1]?.body.createOrUpdateTaskRequestId).toBe(live.sent[0]?.body.createOrUpdateTaskRequestId);
  });
});

describe('EditTaskButton', () => {
  const definition = makeTaskDefinition({ id: 9, name: 'Home folders' });

  it('starts from the stored task, keeps its unopened selection and marks a changed schedule', async () => {
    fakeMachineServer({ definition });
    const live = fakeLiveChannel({ answer: saves });
    const events = renderSignedIn(
      <live.Provider>
        <EditTaskButton
          machineId={5}
          taskId={9}
          osFamily="LINUX"
          timeZone="UTC"
          onSaved={() => undefined}
          animation={false}
        />
        <ToastHost />
      </live.Provider>,
    );
    await events.click(screen.getByRole('button', { name: TEXT.editButton }));
    await waitFor(() => expect(screen.getByLabelText(L.name)).toHaveValue('Home folders'));
    await waitFor(() => expect(screen.getByLabelText('Expression')).toHaveValue('30 1 * * *'));
    expect(screen.getByLabelText(L.numberOfSnapshotsToKeep)).toHaveValue('12');
    expect(screen.getByLabelText(L.uploadBandwidthLimit)).toHaveValue('5');
    expect(screen.getByLabelText(TEXT.syncDeletions)).toBeChecked();
    expect(screen.getByText('*.tmp')).toBeInTheDocument();
    expect(screen.getByLabelText(L.type)).toBeDisabled();
    expect(screen.queryByLabelText(TEXT.createSeed)).not.toBeInTheDocument();
    await tree().findByLabelText('home');
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(1));
    expect(live.sent[0]?.destination).toBe('/ws/inbound/backupmachines/5/edittask');
    expect(live.sent[0]?.body).toMatchObject({
      id: 9,
      backupItems: [{ path: '/home/ana' }],
      backupScheduleDefinitionChanged: false,
    });

    await events.click(screen.getByRole('button', { name: TEXT.editButton }));
    await waitFor(() => expect(screen.getByLabelText('Expression')).toHaveValue('30 1 * * *'));
    await events.clear(screen.getByLabelText('Expression'));
    await events.type(screen.getByLabelText('Expression'), '0 4 * * *');
    await save(events);
    await waitFor(() => expect(live.sent).toHaveLength(2));
    expect(live.sent[1]?.body).toMatchObject({
      backupScheduleDefinition: '0 4 * * *',
      backupScheduleDefinitionChanged: true,
    });
  });
});
