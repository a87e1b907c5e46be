import { zodResolver } from '@hookform/resolvers/zod';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_LABELS,
  NOTIFICATION_TEXTS,
  type NotificationMachineOption,
  type NotificationUserRow,
  type NotificationUserSettingsInput,
  notificationUserSettingsSchema,
  OUTCOME_TEXTS,
  SUMMARY_FREQUENCIES,
  SUMMARY_FREQUENCY_NAMES,
} from '@portal/domain';
import { useState } from 'react';
import { type Path, type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, SelectField, useDialogSubmit, useOnOpen } from '../../ui';
import { MachineChooser } from './MachineChooser';
import { useSaveUserNotifications } from './mutations';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;

type Values = NotificationUserSettingsInput;

const valuesOf = (user: NotificationUserRow): Values => ({
  runFailed: user.runFailed,
  runWarnings: user.runWarnings,
  runMissed: user.runMissed,
  machineOffline: user.machineOffline,
  quota: user.quota,
  verification: user.verification,
  summary: user.summary,
  allMachines: user.allMachines,
  machineIds: user.machines.map((m) => m.id),
});

const FIELDS: Array<Path<Values>> = [...NOTIFICATION_KINDS, 'summary', 'allMachines', 'machineIds'];
const SUMMARY_OPTIONS = SUMMARY_FREQUENCIES.map((value) => ({ value, label: SUMMARY_FREQUENCY_NAMES[value] }));

export interface EditNotificationsDialogProps {
  user: NotificationUserRow | null;
  onHide: () => void;
  animation?: boolean;
}

/** One user's alerts and machines (issue 17): a toggle per kind, the summary, all machines or chosen ones. */
export function EditNotificationsDialog({ user, onHide, animation }: EditNotificationsDialogProps) {
  const show = user !== null;
  const form = useForm<Values>({
    resolver: zodResolver(notificationUserSettingsSchema) as unknown as Resolver<Values>,
    defaultValues: user ? valuesOf(user) : undefined,
  });
  const [chosen, setChosen] = useState<NotificationMachineOption[]>([]);
  useOnOpen(show, () => {
    if (!user) return;
    form.reset(valuesOf(user));
    setChosen(user.machines);
  });
  const allMachines = form.watch('allMachines');
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSaveUserNotifications(),
    ...OUTCOME_TEXTS.notifications.save,
    form: { setError: form.setError, fieldNames: FIELDS },
  });
  const save = form.handleSubmit(async (values) => {
    if (!user) return;
    const outcome = await submit({ userId: user.userId, payload: values });
    if (outcome.close) onHide();
  });
  const machinesError = form.formState.errors.machineIds?.message;

  return (
    <FormModal
      show={show}
      title={user ? TEXT.editTitle(user.name) : ''}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.save}
      onExited={clearErrors}
      animation={animation}
      size="lg"
      data-testid="notifications-dialog"
    >
      {NOTIFICATION_KINDS.map((kind) => (
        <CheckboxField key={kind} form={form} name={kind} label={L[kind]} idPrefix="notify-" />
      ))}
      {form.watch('quota') && <p className="small text-muted">{TEXT.quotaHint}</p>}
      <SelectField form={form} name="summary" label={L.summary} options={SUMMARY_OPTIONS} idPrefix="notify-" />
      <CheckboxField form={form} name="allMachines" label={L.allMachines} idPrefix="notify-" />
      {!allMachines && (
        <MachineChooser
          chosen={chosen}
          error={typeof machinesError === 'string' ? machinesError : undefined}
          onChange={(next) => {
            setChosen(next);
            form.setValue(
              'machineIds',
              next.map((m) => m.id),
              { shouldValidate: form.formState.isSubmitted },
            );
          }}
        />
      )}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
