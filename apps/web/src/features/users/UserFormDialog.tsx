import type { UserRow } from '@portal/domain';
import {
  fieldRequired,
  MESSAGE_ROUTING,
  MESSAGES,
  newUserForm,
  OUTCOME_TEXTS,
  USER_FORM_LABELS,
  type UserAddForm,
  type UserFormMode,
  userAddSchema,
  userEditSchema,
  userFormSchema,
} from '@portal/domain';
import { useEffect } from 'react';
import type { Path } from 'react-hook-form';
import { CheckboxField, type DialogProps, FormDialog, SelectField, TextFields, useFormDialog } from '../../ui';
import { useSaveUser } from './mutations';
import { useUserRoles } from './queries';

const TEXT = MESSAGES.user;
const L = USER_FORM_LABELS;

export interface UserFormDialogProps extends DialogProps {
  mode: UserFormMode;
  /** The user being edited (edit mode). */
  user?: UserRow;
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

/** Each mode's server message routing (002 §8.1). */
const ROUTING = { add: MESSAGE_ROUTING.userAdd, edit: MESSAGE_ROUTING.userEdit } as const;

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
export function UserFormDialog({ mode, user, ...shown }: UserFormDialogProps) {
  const roles = useUserRoles(shown.show && mode === 'add');
  const roleOptions = roles.data?.elements ?? [];
  const firstRole = roleOptions[0]?.role;
  const { form, field, dialog } = useFormDialog({
    ...shown,
    // One form for both modes: the edit schema reads the same fields less readOnly and role, and its
    // payload (UserEditPayload) is what is sent when editing.
    schema: userFormSchema(mode),
    // Each opening starts afresh: an empty form, or the user as it is now.
    defaults: () => defaultsOf(mode, user, firstRole === undefined ? [] : [firstRole]),
    mutation: useSaveUser(),
    // Parsing again gives the payload type (edit drops readOnly and role).
    variables: (_payload, values) =>
      mode === 'add' || !user
        ? { mode: 'add' as const, payload: userAddSchema.parse(values) }
        : { mode: 'edit' as const, userId: user.id, payload: userEditSchema.parse(values) },
    fieldNames: [...TEXT_FIELDS.map((f) => f.name), ...(mode === 'add' ? ADD_ONLY_FIELDS : [])],
    routing: ROUTING[mode],
    idPrefix: 'user-',
    ...OUTCOME_TEXTS.user[mode],
  });

  // The roles arrive after the dialog opens; preselect the first unless one is chosen already.
  useEffect(() => {
    if (mode === 'add' && firstRole !== undefined && form.getValues('role') === '') form.setValue('role', firstRole);
  }, [mode, firstRole, form]);

  return (
    <FormDialog
      dialog={dialog}
      title={mode === 'add' ? TEXT.addDialogTitle : TEXT.editDialogTitle}
      submitLabel={mode === 'add' ? TEXT.addSubmit : TEXT.editSubmit}
      data-testid="user-form-dialog"
    >
      <TextFields
        {...field}
        fields={TEXT_FIELDS.map(({ name, ...input }) => {
          const label = L[name as keyof typeof L];
          return { ...input, name, label, placeholder: placeholderOf(mode, name, label) };
        })}
      />
      {mode === 'add' && (
        <>
          <SelectField
            {...field}
            name="role"
            label={L.role}
            options={roleOptions.map((r) => ({ value: r.role, label: r.roleName }))}
          />
          <CheckboxField {...field} name="readOnly" label={L.readOnly} />
        </>
      )}
    </FormDialog>
  );
}
