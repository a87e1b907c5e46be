import {
  defaultPreset,
  EVERY_N_HOURS_CHOICES,
  nextRuns,
  PRESET_LAST_MONTH_DAY,
  presetOf,
  presetToCron,
  SCHEDULE_PRESET_KINDS,
  SCHEDULE_PRESET_TEXTS,
  type SchedulePreset,
  type SchedulePresetKind,
  validateCron,
  WEEKDAY_NAMES,
  zoneTimeText,
} from '@portal/domain';
import { useId, useMemo } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

const TEXT = SCHEDULE_PRESET_TEXTS;
const pad = (n: number) => String(n).padStart(2, '0');
const MONTH_DAYS = Array.from({ length: PRESET_LAST_MONTH_DAY }, (_, i) => i + 1);
const MINUTES = Array.from({ length: 60 }, (_, i) => i);
// Monday first, as a week is usually read.
const WEEK = [1, 2, 3, 4, 5, 6, 0];

export interface SchedulePresetsProps {
  /** The schedule the picker holds: the preset shown is the one it is, if any. */
  value: string;
  onChange: (schedule: string) => void;
  disabled?: boolean;
}

/**
 * Presets beside the schedule picker (issue 31): choosing one, or changing its numbers, fills the picker's five
 * fields with its cron. What it shows is read from the schedule itself, so a schedule typed in the picker that is a
 * preset shows as that preset, and any other shows none.
 */
export function SchedulePresets({ value, onChange, disabled = false }: SchedulePresetsProps) {
  const id = useId();
  const preset = presetOf(value);
  const choose = (next: SchedulePreset) => onChange(presetToCron(next));
  const changeTime = (text: string) => {
    const [hour, minute] = text.split(':').map(Number);
    if (preset && preset.kind !== 'everyHours' && hour !== undefined && minute !== undefined && !Number.isNaN(hour))
      choose({ ...preset, hour, minute });
  };
  return (
    <fieldset className="mb-3" data-testid="schedule-presets" disabled={disabled}>
      <Form.Group as={Row} className="mb-2" controlId={`${id}-kind`}>
        <Form.Label column sm={4}>
          {TEXT.label}
        </Form.Label>
        <Col sm={8}>
          <Form.Select
            value={preset?.kind ?? ''}
            onChange={(e) => e.target.value && choose(defaultPreset(e.target.value as SchedulePresetKind))}
          >
            <option value="">{TEXT.none}</option>
            {SCHEDULE_PRESET_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {TEXT.kinds[kind]}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Form.Group>
      {preset && (
        <Row className="mb-2 g-2 align-items-center">
          <Col sm={{ span: 8, offset: 4 }} className="d-flex flex-wrap gap-2">
            {preset.kind === 'everyHours' && (
              <>
                <NumberChoice
                  label={TEXT.hours}
                  value={preset.hours}
                  choices={EVERY_N_HOURS_CHOICES}
                  onChange={(hours) => choose({ ...preset, hours })}
                />
                <NumberChoice
                  label={TEXT.minute}
                  value={preset.minute}
                  choices={MINUTES}
                  onChange={(minute) => choose({ ...preset, minute })}
                />
              </>
            )}
            {preset.kind === 'weekly' && (
              <Form.Select
                aria-label={TEXT.weekDay}
                className="w-auto"
                value={preset.weekDay}
                onChange={(e) => choose({ ...preset, weekDay: Number(e.target.value) })}
              >
                {WEEK.map((day) => (
                  <option key={day} value={day}>
                    {WEEKDAY_NAMES[day]}
                  </option>
                ))}
              </Form.Select>
            )}
            {preset.kind === 'monthly' && (
              <NumberChoice
                label={TEXT.monthDay}
                value={preset.monthDay}
                choices={MONTH_DAYS}
                onChange={(monthDay) => choose({ ...preset, monthDay })}
              />
            )}
            {preset.kind !== 'everyHours' && (
              <Form.Control
                type="time"
                aria-label={TEXT.time}
                className="w-auto"
                value={`${pad(preset.hour)}:${pad(preset.minute)}`}
                onChange={(e) => changeTime(e.target.value)}
              />
            )}
          </Col>
        </Row>
      )}
    </fieldset>
  );
}

function NumberChoice({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: number;
  choices: readonly number[];
  onChange: (value: number) => void;
}) {
  return (
    <Form.Select aria-label={label} className="w-auto" value={value} onChange={(e) => onChange(Number(e.target.value))}>
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {choice}
        </option>
      ))}
    </Form.Select>
  );
}

/** The schedule's next run times on the clock of the zone its tasks run in, labelled with the zone. */
export function NextRuns({ schedule, timeZone }: { schedule: string; timeZone: string }) {
  // Read once per schedule and zone: a run that passes while the form is open does not move the list.
  const runs = useMemo(() => nextRuns(schedule, new Date(), timeZone), [schedule, timeZone]);
  const title = TEXT.nextRunsTitle(timeZone);
  // No schedule yet, or one the picker marks as wrong: there is nothing to show.
  if (validateCron(schedule) !== null) return null;
  return (
    <section className="mb-3" aria-label={title} data-testid="next-runs">
      <div className="form-label mb-1">{title}</div>
      {runs.length === 0 ? (
        <div className="small text-muted">{TEXT.noRuns}</div>
      ) : (
        <ol className="small mb-0 ps-3">
          {runs.map((run) => (
            <li key={run.getTime()}>
              <time dateTime={run.toISOString()}>{zoneTimeText(run, timeZone)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
