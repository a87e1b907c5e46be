import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import type { FieldValues, Path, Resolver, UseFormReturn } from 'react-hook-form';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { ApiMutation } from './mutation';
import type { SubmitOutcome, SubmitTexts } from './serverMessages';
import { useDialogSubmit } from './useDialogSubmit';
import { useOnOpen } from './useOnOpen';

export interface SubmitFormOptions<F extends FieldValues, S extends z.ZodType, V, T> extends SubmitTexts<T> {
  /** The domain's form schema: checks the fields in the browser and gives the payload. */
  schema: S;
  /** The values the form starts from (an empty form, or the record as it is now). */
  defaults: () => F;
  /** The feature's mutation, called with `variables` of the checked payload. */
  mutation: ApiMutation<V, T>;
  variables: (payload: z.output<S>, values: F) => V;
  /** The form's fields: a server message naming one lands on it. */
  fieldNames: ReadonlyArray<Path<F>>;
  /** The domain's routing of this form's messages (MESSAGE_ROUTING.…): names that stay global. */
  routing?: { globalFieldNames: readonly string[] };
  /** Id prefix of the fields, so two forms on one page can share field names. */
  idPrefix?: string;
  /** What follows the answer (given what was sent); the form stays busy until it is done. */
  onOutcome?: (outcome: SubmitOutcome<T>, sent: V) => void | Promise<void>;
}

/**
 * One form that sends a mutation (001 §5, §8): the zod form with the domain's schema and the submission through
 * useDialogSubmit with the server's messages on their fields. A form on a page uses it as it is; useFormDialog
 * adds the dialog's opening and closing. Hand `field` to each TextField/SelectField/CheckboxField.
 */
export function useSubmitForm<F extends FieldValues, S extends z.ZodType, V, T>({
  schema,
  defaults,
  mutation,
  variables,
  fieldNames,
  routing,
  idPrefix = '',
  onOutcome,
  ...texts
}: SubmitFormOptions<F, S, V, T>) {
  const form = useForm<F>({
    // The form holds the fields as the inputs give them; the schema turns them into the payload.
    resolver: zodResolver(schema as never) as unknown as Resolver<F>,
    defaultValues: defaults() as never,
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    ...texts,
    mutation,
    form: { setError: form.setError, fieldNames, globalFieldNames: routing?.globalFieldNames },
  });
  // The resolver has checked the values; parsing again gives the payload's type.
  const onSubmit = form.handleSubmit(async (values) => {
    const sent = variables(schema.parse(values), values);
    const outcome = await submit(sent);
    await onOutcome?.(outcome, sent);
  });
  const submitting = form.formState.isSubmitting;
  return { form, field: { form, idPrefix }, onSubmit, submitting, globalErrors, clearErrors };
}

/**
 * A form of stored settings on a page: it starts from them, sends what the schema makes of the fields, and starts
 * again from them whenever they come back changed (its own save refreshed them, or another did).
 */
export function useSettingsForm<F extends FieldValues, S extends z.ZodType, T>(
  settings: F,
  options: Omit<SubmitFormOptions<F, S, z.output<S>, T>, 'defaults' | 'variables'>,
) {
  const submitForm = useSubmitForm({ ...options, defaults: () => settings, variables: (payload) => payload });
  const { form } = submitForm;
  useEffect(() => form.reset(settings), [form, settings]);
  return submitForm;
}

export interface FormDialogOptions<F extends FieldValues, S extends z.ZodType, V, T>
  extends SubmitFormOptions<F, S, V, T> {
  show: boolean;
  /** Closes the dialog; called after a clean success unless `onOutcome` is given. */
  onHide: () => void;
  animation?: boolean;
  /** What follows the answer (given what was sent) instead of closing on success. */
  onOutcome?: (outcome: SubmitOutcome<T>, sent: V) => void | Promise<void>;
}

/** What FormDialog shows: the modal's state and the submission's global errors. */
export interface FormDialogState {
  show: boolean;
  onHide: () => void;
  animation?: boolean;
  onSubmit: ReturnType<UseFormReturn<FieldValues>['handleSubmit']>;
  submitting: boolean;
  onExited: () => void;
  globalErrors: ReturnType<typeof useDialogSubmit>['globalErrors'];
}

/**
 * One form dialog (001 §4, §5, §8): useSubmitForm, reset at each opening and closed on a clean success. Hand
 * `dialog` to FormDialog and `field` to each TextField/SelectField/CheckboxField.
 */
export function useFormDialog<F extends FieldValues, S extends z.ZodType, V, T>({
  show,
  onHide,
  animation,
  onOutcome,
  ...options
}: FormDialogOptions<F, S, V, T>) {
  const { form, field, onSubmit, submitting, globalErrors, clearErrors } = useSubmitForm({
    ...options,
    onOutcome: async (outcome, sent) => {
      if (onOutcome) await onOutcome(outcome, sent);
      else if (outcome.close) onHide();
    },
  });
  useOnOpen(show, () => form.reset(options.defaults()));
  const dialog: FormDialogState = {
    show,
    onHide,
    animation,
    onSubmit,
    submitting,
    onExited: clearErrors,
    globalErrors,
  };
  return { form, field, dialog };
}
