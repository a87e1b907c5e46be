import { SCHEDULE_PRESET_TEXTS as TEXT } from '@portal/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SchedulePicker } from './SchedulePicker';
import { NextRuns, SchedulePresets } from './SchedulePresets';

/** The presets beside the picker, both on one schedule, as the task form has them. */
function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <SchedulePresets value={value} onChange={setValue} />
      <SchedulePicker value={value} onChange={setValue} />
      <NextRuns schedule={value} timeZone="Asia/Kolkata" />
    </>
  );
}

describe('SchedulePresets (issue 31)', () => {
  it('fills the picker with a preset, and its numbers change the same five fields', async () => {
    const events = userEvent.setup();
    render(<Harness initial="" />);
    await events.selectOptions(screen.getByLabelText(TEXT.label), TEXT.kinds.monthly);
    expect(screen.getByLabelText('Expression')).toHaveValue('0 2 1 * *');
    await events.selectOptions(screen.getByLabelText(TEXT.monthDay), '15');
    expect(screen.getByLabelText('Expression')).toHaveValue('0 2 15 * *');
    await events.selectOptions(screen.getByLabelText(TEXT.label), TEXT.kinds.everyHours);
    await events.selectOptions(screen.getByLabelText(TEXT.hours), '4');
    expect(screen.getByLabelText('Expression')).toHaveValue('0 */4 * * *');
  });

  it('shows a typed schedule as its preset, and any other as none', async () => {
    const events = userEvent.setup();
    render(<Harness initial="30 3 * * *" />);
    expect(screen.getByLabelText(TEXT.label)).toHaveValue('daily');
    expect(screen.getByLabelText(TEXT.time)).toHaveValue('03:30');
    await events.clear(screen.getByLabelText('Expression'));
    await events.type(screen.getByLabelText('Expression'), '*/5 * * * *');
    expect(screen.getByLabelText(TEXT.label)).toHaveValue('');
  });

  it("lists the next five runs on the zone's clock, labelled with the zone", () => {
    render(<Harness initial="15 22 * * 2" />);
    const runs = screen.getByRole('region', { name: TEXT.nextRunsTitle('Asia/Kolkata') });
    const items = within(runs).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    for (const item of items) expect(item).toHaveTextContent(/^Tue \d{4}-\d\d-\d\d 22:15$/);
  });
});
