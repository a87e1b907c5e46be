import {
  CUSTOMER_FORM_LABELS,
  customerPluginSettingsSchema,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
} from '@portal/domain';
import type { z } from 'zod';
import { CheckboxField, FormDialog, useFormDialog } from '../../ui';
import type { CustomerDialogProps } from './ChangeCustomerStatusDialog';
import { useSaveCustomerPlugins } from './mutations';

const TEXT = MESSAGES.customer;

type PluginSettingsForm = z.input<typeof customerPluginSettingsSchema>;

/** 'Edit customer plugin settings' (002 §2.5, §7.3): PUT plugins with cpanelPluginEnabled (provider only). */
export function PluginSettingsDialog({ customer, ...shown }: Omit<CustomerDialogProps, 'audience'>) {
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: customerPluginSettingsSchema,
    // Each opening starts from the customer's current setting; a refresh behind the open dialog keeps its messages.
    defaults: (): PluginSettingsForm => ({ cpanelPluginEnabled: customer.cpanelPluginEnabled }),
    mutation: useSaveCustomerPlugins(),
    variables: (settings) => ({ customerId: customer.id, settings }),
    fieldNames: ['cpanelPluginEnabled'],
    routing: MESSAGE_ROUTING.customerPluginSettings,
    idPrefix: 'plugins-',
    ...OUTCOME_TEXTS.customer.savePluginSettings,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.pluginSettingsTitle}
      submitLabel={TEXT.pluginSettingsSubmit}
      data-testid="plugin-settings-dialog"
    >
      <CheckboxField {...field} name="cpanelPluginEnabled" label={CUSTOMER_FORM_LABELS.cpanelPluginEnabled} />
    </FormDialog>
  );
}
