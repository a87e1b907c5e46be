import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGE_ROUTING, MESSAGES, USER_FORM_LABELS, type UserRow, userLinkSchema } from '@portal/domain';
import { useEffect } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, SelectField, useDialogSubmit } from '../../ui';
import { useLinkPackage } from './mutations';
import { useLinkablePackages } from './queries';

const TEXT = MESSAGES.user;

interface LinkFormValues {
  backupPackageId: string;
}

export interface LinkPackageDialogProps {
  show: boolean;
  user: UserRow;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Link user to backup package (002 §5.2): the customer's packages the user is not linked to yet, the
 * first preselected; Link is disabled, with the tooltip 'No packages to link to', when there are none.
 */
export function LinkPackageDialog({ show, user, onHide, animation }: LinkPackageDialogProps) {
  const linkable = useLinkablePackages(user.id, show);
  const packages = linkable.data?.elements ?? [];
  const form = useForm<LinkFormValues>({
    // The select holds ids as text; the schema turns them into the payload's number.
    resolver: zodResolver(userLinkSchema) as unknown as Resolver<LinkFormValues>,
    defaultValues: { backupPackageId: '' },
  });
  const { isSubmitting } = form.formState;

  const first = packages[0]?.id;
  useEffect(() => {
    if (first !== undefined && form.getValues('backupPackageId') === '')
      form.setValue('backupPackageId', String(first));
  }, [first, form]);

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useLinkPackage(),
    successText: TEXT.linked,
    partialText: TEXT.linkedWithErrors,
    unknownErrorText: TEXT.unknownWhileLinking,
    form: {
      setError: form.setError,
      fieldNames: ['backupPackageId'],
      globalFieldNames: MESSAGE_ROUTING.userLink.globalFieldNames,
    },
  });

  const link = form.handleSubmit(async (values) => {
    const outcome = await submit({ userId: user.id, payload: userLinkSchema.parse(values) });
    if (outcome.close) onHide();
  });

  const nothingToLink = linkable.isSuccess && packages.length === 0;
  return (
    <FormModal
      show={show}
      title={TEXT.linkDialogTitle}
      onHide={onHide}
      onSubmit={link}
      submitting={isSubmitting}
      submitLabel={TEXT.linkSubmit}
      submitDisabled={packages.length === 0}
      submitTooltip={nothingToLink ? TEXT.noPackagesToLink : undefined}
      onExited={() => {
        form.reset({ backupPackageId: '' });
        clearErrors();
      }}
      animation={animation}
      data-testid="link-package-dialog"
    >
      <SelectField
        form={form}
        idPrefix="link-"
        name="backupPackageId"
        label={USER_FORM_LABELS.backupPackageId}
        options={packages.map((p) => ({ value: p.id, label: p.name }))}
        disabled={packages.length === 0}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
