import {
  CRON_FIELD_BOUNDS,
  type CronField,
  cronExpressionSchema,
  cronToPicker,
  describeCron,
  PERIOD_FIELDS,
  PICKER_FIELDS,
  type PickerField,
  type PickerFieldName,
  pickerField,
  SCHEDULE_PERIODS,
  type SchedulePeriod,
} from '@portal/domain';
import { useEffect, useId, useRef, useState } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

const PERIOD_LABELS: Record<SchedulePeriod, string> = {
  hour: 'Every hour',
  day: 'Every day',
  week: 'Every week',
  month: 'Every month',
  year: 'Every year',
};

const FIELD_LABELS: Record<PickerFieldName, string> = {
  minutes: 'Minutes',
  hours: 'Hours',
  monthDays: 'Days of the month',
  weekDays: 'Days of the week',
  months: 'Months',
};

type FieldKind = PickerField['kind'];

/** One field as the user edits it: the texts of its inputs, read into cron text on every change. */
interface FieldInput {
  kind: FieldKind;
  from: string;
  to: string;
  step: string;
  values: string;
}

type FieldInputs = Record<PickerFieldName, FieldInput>;

const EVERY_INPUT: FieldInput = { kind: 'every', from: '', to: '', step: '1', values: '' };
const FIELD_NAMES = Object.keys(PICKER_FIELDS) as PickerFieldName[];

const everyInputs = (): FieldInputs =>
  Object.fromEntries(FIELD_NAMES.map((name) => [name, { ...EVERY_INPUT }])) as FieldInputs;

function inputOf(field: PickerField): FieldInput {
  switch (field.kind) {
    case 'every':
      return { ...EVERY_INPUT };
    case 'range':
      return {
        ...EVERY_INPUT,
        kind: 'range',
        from: String(field.from),
        to: String(field.to),
        step: String(field.step),
      };
    case 'values':
      return { ...EVERY_INPUT, kind: 'values', values: field.values.join(',') };
  }
}

/**
 * The cron text of one field: '*', 'from-to' (with '/step' unless 1), or the values as typed. Nothing is
 * corrected here: the expression is checked as a whole (000 §5), so a bad value shows the picker's message.
 */
function fieldText(input: FieldInput): string {
  if (input.kind === 'every') return '*';
  if (input.kind === 'range') {
    const step = input.step.trim();
    return `${input.from.trim()}-${input.to.trim()}${step === '' || step === '1' ? '' : `/${step}`}`;
  }
  return input.values.replace(/\s+/g, '');
}

function expressionOf(period: SchedulePeriod, inputs: FieldInputs, unix: boolean): string {
  const shown: readonly PickerFieldName[] = PERIOD_FIELDS[period];
  const text = (name: PickerFieldName) => (shown.includes(name) ? fieldText(inputs[name]) : '*');
  const five = [text('minutes'), text('hours'), text('monthDays'), text('months'), text('weekDays')].join(' ');
  return unix ? `0 ${five}` : five;
}

/** The picker's state read from an expression: its period and fields, or null when the picker cannot show it. */
function readExpression(expression: string, period?: SchedulePeriod) {
  const result = cronToPicker(expression, period);
  if (result.kind !== 'picker') return null;
  const inputs = everyInputs();
  for (const name of FIELD_NAMES) inputs[name] = inputOf(pickerField(result.model, name));
  return { period: result.model.period, inputs };
}

const pickerError = (expression: string): string | null => {
  const parsed = cronExpressionSchema.safeParse(expression);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
};

function describe(expression: string): string | null {
  try {
    return describeCron(expression);
  } catch {
    return null;
  }
}

export interface SchedulePickerProps {
  /** The schedule: a five-field cron ('' for none yet), or six fields with `unix`. */
  value: string;
  onChange: (schedule: string) => void;
  /** The form's message for the schedule ('Please select a schedule for this task.'). */
  error?: string | undefined;
  /** The Unix variant: a leading seconds field of 0 (000 §2). */
  unix?: boolean;
  disabled?: boolean;
  label?: string;
}

/**
 * The schedule picker (000 §2, §5): a period (hour, day, week, month, year) and, for each field that period
 * shows, every value, one range or one list of values — never both. The cron expression it makes is shown
 * and may be typed directly; an expression without five fields says 'Bad number of elements', one that does
 * not parse 'Unrecognized expression'.
 */
export function SchedulePicker({
  value,
  onChange,
  error,
  unix = false,
  disabled = false,
  label = 'Backup schedule',
}: SchedulePickerProps) {
  const id = useId();
  const initial = readExpression(value);
  const [period, setPeriod] = useState<SchedulePeriod>(initial?.period ?? 'day');
  const [inputs, setInputs] = useState<FieldInputs>(initial?.inputs ?? everyInputs());
  const [expression, setExpression] = useState(value);
  const ownValue = useRef(value);

  // A new value from outside (the form reset, the task loaded): the picker shows it.
  useEffect(() => {
    if (value === ownValue.current) return;
    ownValue.current = value;
    setExpression(value);
    const read = readExpression(value);
    if (read) {
      setPeriod(read.period);
      setInputs(read.inputs);
    } else if (value === '') {
      setPeriod('day');
      setInputs(everyInputs());
    }
  }, [value]);

  const emit = (next: string) => {
    ownValue.current = next;
    setExpression(next);
    onChange(next);
  };

  const changeFields = (nextPeriod: SchedulePeriod, nextInputs: FieldInputs) => {
    setPeriod(nextPeriod);
    setInputs(nextInputs);
    emit(expressionOf(nextPeriod, nextInputs, unix));
  };

  const changeField = (name: PickerFieldName, patch: Partial<FieldInput>) => {
    const current = inputs[name];
    const next = { ...current, ...patch };
    // Turning a field into a range starts from its whole span, so the picker never holds a half range.
    if (patch.kind === 'range' && current.kind !== 'range') {
      const { min, max } = CRON_FIELD_BOUNDS[PICKER_FIELDS[name] as CronField];
      Object.assign(next, { from: String(min), to: String(max), step: '1' });
    }
    changeFields(period, { ...inputs, [name]: next });
  };

  const typeExpression = (text: string) => {
    emit(text);
    const read = readExpression(text, period);
    if (read) {
      setPeriod(read.period);
      setInputs(read.inputs);
    }
  };

  const ownError = expression.trim() === '' ? null : pickerError(expression);
  const message = ownError ?? error;
  const description = message ? null : describe(expression);
  const shown: readonly PickerFieldName[] = PERIOD_FIELDS[period];

  return (
    <fieldset className="mb-3" data-testid="schedule-picker" disabled={disabled}>
      <legend className="form-label fs-6">{label}</legend>
      <Form.Group as={Row} className="mb-2" controlId={`${id}-period`}>
        <Form.Label column sm={4}>
          Period
        </Form.Label>
        <Col sm={8}>
          <Form.Select value={period} onChange={(e) => changeFields(e.target.value as SchedulePeriod, inputs)}>
            {SCHEDULE_PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Form.Group>
      {shown.map((name) => (
        <PickerFieldRow key={name} id={`${id}-${name}`} name={name} input={inputs[name]} onChange={changeField} />
      ))}
      <Form.Group as={Row} className="mb-1" controlId={`${id}-expression`}>
        <Form.Label column sm={4}>
          Expression
        </Form.Label>
        <Col sm={8}>
          <Form.Control
            value={expression}
            onChange={(e) => typeExpression(e.target.value)}
            isInvalid={Boolean(message)}
            placeholder="minute hour day-of-month month day-of-week"
            spellCheck={false}
          />
          <Form.Control.Feedback type="invalid" data-testid="schedule-error">
            {message}
          </Form.Control.Feedback>
          {description && (
            <Form.Text data-testid="schedule-description" muted>
              {description}
            </Form.Text>
          )}
        </Col>
      </Form.Group>
    </fieldset>
  );
}

function PickerFieldRow({
  id,
  name,
  input,
  onChange,
}: {
  id: string;
  name: PickerFieldName;
  input: FieldInput;
  onChange: (name: PickerFieldName, patch: Partial<FieldInput>) => void;
}) {
  const label = FIELD_LABELS[name];
  const { min, max } = CRON_FIELD_BOUNDS[PICKER_FIELDS[name] as CronField];
  return (
    <Row className="mb-2 align-items-center" data-testid={`schedule-field-${name}`}>
      <Form.Label column sm={4} htmlFor={`${id}-kind`}>
        {label}
      </Form.Label>
      <Col sm={3}>
        <Form.Select
          id={`${id}-kind`}
          aria-label={`${label}: how`}
          value={input.kind}
          onChange={(e) => onChange(name, { kind: e.target.value as FieldKind })}
        >
          <option value="every">Every</option>
          <option value="range">Range</option>
          <option value="values">Values</option>
        </Form.Select>
      </Col>
      {input.kind === 'range' && (
        <>
          <Col sm={2}>
            <Form.Control
              aria-label={`${label} from`}
              value={input.from}
              inputMode="numeric"
              onChange={(e) => onChange(name, { from: e.target.value })}
            />
          </Col>
          <Col sm={2}>
            <Form.Control
              aria-label={`${label} to`}
              value={input.to}
              inputMode="numeric"
              onChange={(e) => onChange(name, { to: e.target.value })}
            />
          </Col>
          <Col sm={1} className="px-0">
            <Form.Control
              aria-label={`${label} step`}
              value={input.step}
              inputMode="numeric"
              onChange={(e) => onChange(name, { step: e.target.value })}
            />
          </Col>
        </>
      )}
      {input.kind === 'values' && (
        <Col sm={5}>
          <Form.Control
            aria-label={`${label} values`}
            value={input.values}
            placeholder={`${min}-${max}, comma-separated`}
            onChange={(e) => onChange(name, { values: e.target.value })}
          />
        </Col>
      )}
    </Row>
  );
}
