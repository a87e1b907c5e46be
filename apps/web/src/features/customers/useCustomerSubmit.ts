import type { AdminAudience, CustomerDetail, ServerMessage } from '@portal/domain';
import { useCallback, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { ApiResult } from '../../app/api';
import { handleSubmitResult, type SubmitResultOptions } from '../../ui';
import { useCustomerChanged } from './queries';

/**
 * One customer dialog's submission (002 §8.1 message paths through handleSubmitResult): its global
 * errors for the dialog, and, when the server made the change, the customer's page updated and the
 * lists refreshed after the delays of 002 §9.
 */
export function useCustomerSubmit(audience: AdminAudience) {
  const changed = useCustomerChanged();
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
  const submit = useCallback(
    async <F extends FieldValues>(
      customerId: number,
      submission: Promise<ApiResult<CustomerDetail | null>>,
      options: SubmitResultOptions<F>,
    ) => {
      const outcome = await handleSubmitResult(submission, options);
      setGlobalErrors(outcome.globalErrors);
      if (outcome.applied) changed(audience, customerId, outcome.result);
      return outcome;
    },
    [audience, changed],
  );
  const clearErrors = useCallback(() => setGlobalErrors([]), []);
  return { submit, globalErrors, clearErrors };
}
