import {
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  USER_FORM_LABELS,
  type UserRow,
  userLinkSchema,
} from '@portal/domain';
import { useEffect } from 'react';
import { type DialogProps, FormDialog, SelectField, useFormDialog } from '../../ui';
import { useLinkPackage } from './mutations';
import { useLinkablePackages } from './queries';

const TEXT = MESSAGES.user;

interface LinkFormValues {
  backupPackageId: string;
}

export interface LinkPackageDialogProps extends DialogProps {
  user: UserRow;
}

/**
 * Link user to backup package (002 §5.2): the customer's packages the user is not linked to yet, the
 * first preselected; Link is disabled, with the tooltip 'No packages to link to', when there are none.
 */
export function LinkPackageDialog({ user, ...shown }: LinkPackageDialogProps) {
  const linkable = useLinkablePackages(user.id, shown.show);
  const packages = linkable.data?.elements ?? [];
  const { form, field, dialog } = useFormDialog({
    ...shown,
    // The select holds ids as text; the schema turns them into the payload's number.
    schema: userLinkSchema,
    defaults: (): LinkFormValues => ({ backupPackageId: '' }),
    mutation: useLinkPackage(),
    variables: (payload) => ({ userId: user.id, payload }),
    fieldNames: ['backupPackageId'],
    routing: MESSAGE_ROUTING.userLink,
    idPrefix: 'link-',
    ...OUTCOME_TEXTS.user.linkPackage,
  });

  const first = packages[0]?.id;
  useEffect(() => {
    if (first !== undefined && form.getValues('backupPackageId') === '')
      form.setValue('backupPackageId', String(first));
  }, [first, form]);

  const nothingToLink = linkable.isSuccess && packages.length === 0;
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.linkDialogTitle}
      submitLabel={TEXT.linkSubmit}
      submitDisabled={packages.length === 0}
      submitTooltip={nothingToLink ? TEXT.noPackagesToLink : undefined}
      data-testid="link-package-dialog"
    >
      <SelectField
        {...field}
        name="backupPackageId"
        label={USER_FORM_LABELS.backupPackageId}
        options={packages.map((p) => ({ value: p.id, label: p.name }))}
        disabled={packages.length === 0}
      />
    </FormDialog>
  );
}
