import { zodResolver } from '@hookform/resolvers/zod';
import type { UserRow } from '@portal/domain';
import {
  fieldRequired,
  MESSAGE_ROUTING,
  MESSAGES,
  newUserForm,
  USER_FORM_LABELS,
  type UserAddForm,
  type UserFormMode,
  userAddSchema,
  userEditSchema,
  userFormSchema,
} from '@portal/domain';
import { useEffect } from 'react';
import { type Path, type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, SelectField, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { useSaveUser } from './mutations';
import { useUserRoles } from './queries';

const TEXT = MESSAGES.user;
const L = USER_FORM_LABELS;

export interface UserFormDialogProps {
  show: boolean;
  mode: UserFormMode;
  /** The user being edited (edit mode). */
  user?: UserRow;
  onHide: () => void;
  animation?: boolean;
}

type UserFormValues = UserAddForm;

const TEXT_FIELDS: Array<{
  name: Path<UserFormValues>;
  type: 'text' | 'email' | 'tel' | 'password';
  autoComplete: string;
}> = [
  { name: 'firstName', type: 'text', autoComplete: 'off' },
  { name: 'surname', type: 'text', autoComplete: 'off' },
  { name: 'email', type: 'email', autoComplete: 'off' },
  { name: 'contactNumber', type: 'tel', autoComplete: 'off' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', type: 'password', autoComplete: 'new-password' },
];

const ADD_ONLY_FIELDS: Array<Path<UserFormValues>> = ['readOnly', 'role'];

const OUTCOME_TEXTS = {
  add: {
    successText: TEXT.added,
    partialText: TEXT.addedWithErrors,
    unknownErrorText: TEXT.unknownWhileAdding,
    routing: MESSAGE_ROUTING.userAdd,
  },
  edit: {
    successText: TEXT.edited,
    partialText: TEXT.editedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
    routing: MESSAGE_ROUTING.userEdit,
  },
} as const;

function defaultsOf(mode: UserFormMode, user: UserRow | undefined, roles: readonly string[]): UserFormValues {
  if (mode === 'add' || !user) return newUserForm(roles);
  return {
    firstName: user.firstName,
    surname: user.surname,
    email: user.email,
    contactNumber: user.contactNumber,
    password: '',
    confirmPassword: '',
    // Not edited (the edit schema drops them); kept so the form has one shape in both modes.
    readOnly: user.readOnly,
    role: user.role,
  };
}

const placeholderOf = (mode: UserFormMode, name: Path<UserFormValues>, label: string) =>
  mode === 'edit' && (name === 'password' || name === 'confirmPassword')
    ? TEXT.passwordUnchangedPlaceholder
    : fieldRequired(label);

/**
 * The Add/Edit user dialog (002 §5.1): the user form with the domain's rules; password required only
 * when adding (blank keeps it when editing); read only and role only when adding, the role defaulting
 * to the first assignable one. It cannot be closed while submitting (002 §4.1).
 */
export function UserFormDialog({ show, mode, user, onHide, animation }: UserFormDialogProps) {
  const roles = useUserRoles(show && mode === 'add');
  const roleOptions = roles.data?.elements ?? [];
  const form = useForm<UserFormValues>({
    // One form for both modes: the edit schema reads the same fields less readOnly and role, and its
    // payload (UserEditPayload) is what is sent when editing.
    resolver: zodResolver(userFormSchema(mode)) as unknown as Resolver<UserFormValues>,
    defaultValues: defaultsOf(mode, user, []),
  });
  const { isSubmitting } = form.formState;

  // The roles arrive after the dialog opens; preselect the first unless one is chosen already.
  const firstRole = roleOptions[0]?.role;
  useEffect(() => {
    if (mode === 'add' && firstRole !== undefined && form.getValues('role') === '') form.setValue('role', firstRole);
  }, [mode, firstRole, form]);

  // Each opening starts afresh: an empty form, or the user as it is now.
  useOnOpen(show, () => form.reset(defaultsOf(mode, user, firstRole === undefined ? [] : [firstRole])));

  const texts = OUTCOME_TEXTS[mode];
  const fieldNames = [...TEXT_FIELDS.map((f) => f.name), ...(mode === 'add' ? ADD_ONLY_FIELDS : [])];
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSaveUser(),
    successText: texts.successText,
    partialText: texts.partialText,
    unknownErrorText: texts.unknownErrorText,
    form: { setError: form.setError, fieldNames, globalFieldNames: texts.routing.globalFieldNames },
  });
  // The resolver has checked the values; parsing again gives the payload type (edit drops readOnly and role).
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit(
      mode === 'add' || !user
        ? { mode: 'add', payload: userAddSchema.parse(values) }
        : { mode: 'edit', userId: user.id, payload: userEditSchema.parse(values) },
    );
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={mode === 'add' ? TEXT.addDialogTitle : TEXT.editDialogTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={isSubmitting}
      submitLabel={mode === 'add' ? TEXT.addSubmit : TEXT.editSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="user-form-dialog"
    >
      {TEXT_FIELDS.map((field) => (
        <TextField
          key={field.name}
          form={form}
          idPrefix="user-"
          name={field.name}
          label={L[field.name as keyof typeof L]}
          type={field.type}
          autoComplete={field.autoComplete}
          placeholder={placeholderOf(mode, field.name, L[field.name as keyof typeof L])}
        />
      ))}
      {mode === 'add' && (
        <>
          <SelectField
            form={form}
            idPrefix="user-"
            name="role"
            label={L.role}
            options={roleOptions.map((r) => ({ value: r.role, label: r.roleName }))}
          />
          <CheckboxField form={form} idPrefix="user-" name="readOnly" label={L.readOnly} />
        </>
      )}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
