import { zodResolver } from '@hookform/resolvers/zod';
import {
  CUSTOMER_FORM_LABELS,
  type CustomerPluginSettingsPayload,
  customerPluginSettingsSchema,
  MESSAGE_ROUTING,
  MESSAGES,
} from '@portal/domain';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField, FormModal, GlobalErrors, useDialogSubmit, useOnOpen } from '../../ui';
import type { CustomerDialogProps } from './ChangeCustomerStatusDialog';
import { useSaveCustomerPlugins } from './mutations';

const TEXT = MESSAGES.customer;

type PluginSettingsForm = z.input<typeof customerPluginSettingsSchema>;

/** 'Edit customer plugin settings' (002 §2.5, §7.3): PUT plugins with cpanelPluginEnabled (provider only). */
export function PluginSettingsDialog({ show, onHide, customer, animation }: Omit<CustomerDialogProps, 'audience'>) {
  const form = useForm<PluginSettingsForm, unknown, CustomerPluginSettingsPayload>({
    resolver: zodResolver(customerPluginSettingsSchema),
    defaultValues: { cpanelPluginEnabled: customer.cpanelPluginEnabled },
  });
  // Each opening starts from the customer's current setting; a refresh behind the open dialog keeps its messages.
  useOnOpen(show, () => form.reset({ cpanelPluginEnabled: customer.cpanelPluginEnabled }));

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSaveCustomerPlugins(),
    successText: TEXT.pluginSettingsSaved,
    partialText: TEXT.pluginSettingsSavedWithErrors,
    unknownErrorText: TEXT.unknownWhileSavingPluginSettings,
    form: {
      setError: form.setError,
      fieldNames: ['cpanelPluginEnabled'],
      globalFieldNames: MESSAGE_ROUTING.customerPluginSettings.globalFieldNames,
    },
  });

  const save = form.handleSubmit(async (settings) => {
    const outcome = await submit({ customerId: customer.id, settings });
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={TEXT.pluginSettingsTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.pluginSettingsSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="plugin-settings-dialog"
    >
      <CheckboxField
        form={form}
        name="cpanelPluginEnabled"
        label={CUSTOMER_FORM_LABELS.cpanelPluginEnabled}
        idPrefix="plugins-"
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
