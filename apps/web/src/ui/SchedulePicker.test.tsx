import { SCHEDULE_MESSAGES } from '@portal/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SchedulePicker } from './SchedulePicker';

function Harness({
  initial = '',
  unix = false,
  onChange,
}: {
  initial?: string;
  unix?: boolean;
  onChange: (v: string) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <SchedulePicker
      value={value}
      unix={unix}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

function renderPicker(initial = '', unix = false) {
  const onChange = vi.fn<(value: string) => void>();
  render(<Harness initial={initial} unix={unix} onChange={onChange} />);
  return { events: userEvent.setup(), onChange, last: () => onChange.mock.calls.at(-1)?.[0] };
}

describe('SchedulePicker (000 §2, §5)', () => {
  it("says 'Bad number of elements' for an expression without five fields", async () => {
    const { events } = renderPicker();
    await events.type(screen.getByLabelText('Expression'), '0 2 * *');
    expect(screen.getByTestId('schedule-error')).toHaveTextContent(SCHEDULE_MESSAGES.badNumberOfElements);
  });

  it("says 'Unrecognized expression' for a field that does not parse", async () => {
    const { events } = renderPicker();
    await events.type(screen.getByLabelText('Expression'), '61 2 * * *');
    expect(screen.getByTestId('schedule-error')).toHaveTextContent(SCHEDULE_MESSAGES.unrecognizedExpression);
  });

  it("says 'Unrecognized expression' for a picked value out of range", async () => {
    const { events, last } = renderPicker();
    await events.selectOptions(screen.getByLabelText('Hours: how'), 'values');
    await events.type(screen.getByLabelText('Hours values'), '25');
    expect(last()).toBe('* 25 * * *');
    expect(screen.getByTestId('schedule-error')).toHaveTextContent(SCHEDULE_MESSAGES.unrecognizedExpression);
  });

  it('builds a daily schedule from values, and describes it', async () => {
    const { events, last } = renderPicker();
    expect(screen.getByLabelText('Period')).toHaveValue('day');
    await events.selectOptions(screen.getByLabelText('Minutes: how'), 'values');
    await events.type(screen.getByLabelText('Minutes values'), '0,30');
    await events.selectOptions(screen.getByLabelText('Hours: how'), 'values');
    await events.type(screen.getByLabelText('Hours values'), '2');
    expect(last()).toBe('0,30 2 * * *');
    expect(screen.queryByTestId('schedule-error')).toBeEmptyDOMElement();
    expect(screen.getByTestId('schedule-description')).not.toBeEmptyDOMElement();
  });

  it('a field is either a range or a values list, never both', async () => {
    const { events, last } = renderPicker();
    await events.selectOptions(screen.getByLabelText('Hours: how'), 'range');
    expect(last()).toBe('* 0-23 * * *');
    const to = screen.getByLabelText('Hours to');
    await events.clear(to);
    await events.type(to, '5');
    expect(last()).toBe('* 0-5 * * *');
    expect(screen.queryByLabelText('Hours values')).not.toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText('Hours: how'), 'values');
    expect(screen.queryByLabelText('Hours from')).not.toBeInTheDocument();
    await events.type(screen.getByLabelText('Hours values'), '1,4');
    expect(last()).toBe('* 1,4 * * *');
  });

  it('shows the fields of each period: weekly adds weekdays, yearly adds months', async () => {
    const { events, last } = renderPicker();
    expect(screen.queryByLabelText('Days of the week: how')).not.toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText('Period'), 'week');
    await events.selectOptions(screen.getByLabelText('Days of the week: how'), 'values');
    await events.type(screen.getByLabelText('Days of the week values'), '1');
    expect(last()).toBe('* * * * 1');
    await events.selectOptions(screen.getByLabelText('Period'), 'year');
    expect(screen.getByLabelText('Months: how')).toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText('Period'), 'hour');
    expect(last()).toBe('* * * * *');
  });

  it('reads a given schedule into its period and fields, and adds the leading 0 seconds in the Unix variant', async () => {
    const { events, last } = renderPicker('15 8 * * 1-5', true);
    expect(screen.getByLabelText('Period')).toHaveValue('week');
    expect(screen.getByLabelText('Minutes values')).toHaveValue('15');
    expect(screen.getByLabelText('Days of the week from')).toHaveValue('1');
    expect(screen.getByLabelText('Days of the week to')).toHaveValue('5');
    await events.clear(screen.getByLabelText('Minutes values'));
    await events.type(screen.getByLabelText('Minutes values'), '45');
    expect(last()).toBe('0 45 8 * * 1-5');
  });
});
