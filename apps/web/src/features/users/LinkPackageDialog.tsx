import { zodResolver } from '@hookform/resolvers/zod';
import type { UserRow } from '@portal/domain';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  type ServerMessage,
  USER_FORM_LABELS,
  type UserLinkPayload,
  userLinkPath,
  userLinkSchema,
} from '@portal/domain';
import { useEffect, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { call } from '../../app/api';
import { FormModal, GlobalErrors, handleSubmitResult, SelectField } from '../../ui';
import { useLinkablePackages } from './queries';

const TEXT = MESSAGES.user;

interface LinkFormValues {
  backupPackageId: string;
}

export interface LinkPackageDialogProps {
  show: boolean;
  user: UserRow;
  onHide: () => void;
  /** The server linked the user (also when it reported problems): refresh the user's packages. */
  onChanged: () => void;
  animation?: boolean;
}

/**
 * Link user to backup package (002 §5.2): the customer's packages the user is not linked to yet, the
 * first preselected; Link is disabled, with the tooltip 'No packages to link to', when there are none.
 */
export function LinkPackageDialog({ show, user, onHide, onChanged, animation }: LinkPackageDialogProps) {
  const linkable = useLinkablePackages(user.id, show);
  const packages = linkable.data?.elements ?? [];
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
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

  const submit = form.handleSubmit(async (values) => {
    setGlobalErrors([]);
    const payload: UserLinkPayload = userLinkSchema.parse(values);
    const outcome = await handleSubmitResult(call<UserRow>('PUT', userLinkPath(user.id), payload), {
      successText: TEXT.linked,
      actionText: 'User linked',
      unknownErrorText: TEXT.unknownWhileLinking,
      form: {
        setError: form.setError,
        fieldNames: ['backupPackageId'],
        globalFieldNames: MESSAGE_ROUTING.userLink.globalFieldNames,
      },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.applied) onChanged();
    if (outcome.close) onHide();
  });

  const nothingToLink = linkable.isSuccess && packages.length === 0;
  return (
    <FormModal
      show={show}
      title={TEXT.linkDialogTitle}
      onHide={onHide}
      onSubmit={submit}
      submitting={isSubmitting}
      submitLabel={TEXT.linkSubmit}
      submitDisabled={packages.length === 0}
      submitTooltip={nothingToLink ? TEXT.noPackagesToLink : undefined}
      onExited={() => {
        form.reset({ backupPackageId: '' });
        setGlobalErrors([]);
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
