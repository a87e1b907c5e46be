import { MESSAGES } from '@portal/domain';
import { toast } from '../../ui';
import { useSetDefaultStorageAccount } from './mutations';

/** Set as default (001 §8): 'Updated default storage account.', otherwise 'Error in communicating with server.' */
export function useSetAsDefault() {
  const mutation = useSetDefaultStorageAccount();
  const run = async (storageAccountId: number) => {
    try {
      const { ok } = await mutation.mutateAsync(storageAccountId);
      if (ok) toast.success(MESSAGES.storageAccount.defaultUpdated);
      else toast.error(MESSAGES.communicationError);
    } catch {
      toast.error(MESSAGES.communicationError);
    }
  };
  return { run, pending: mutation.isPending };
}
