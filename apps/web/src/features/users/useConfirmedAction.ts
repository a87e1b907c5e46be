import type { ServerMessage } from '@portal/domain';
import { useCallback, useState } from 'react';
import type { ApiResult } from '../../app/api';
import { handleSubmitResult, type SubmitOutcome } from '../../ui';

export interface ConfirmedActionTexts {
  successText: string;
  /** '… but some errors occurred.' */
  partialText: string;
  unknownErrorText: string;
}

/**
 * A confirmation dialog's call (delete user, unlink user): every message is shown in the dialog's
 * general area (the dialogs have no fields, 001 §5), with the toasts of 001 §8. Answers the outcome so
 * the caller can close the dialog and refresh.
 */
export function useConfirmedAction(texts: ConfirmedActionTexts) {
  const [errors, setErrors] = useState<ServerMessage[]>([]);
  const run = useCallback(
    async <T>(request: Promise<ApiResult<T>>): Promise<SubmitOutcome<T>> => {
      setErrors([]);
      const outcome = await handleSubmitResult(request, texts);
      setErrors(outcome.globalErrors);
      return outcome;
    },
    [texts],
  );
  const clear = useCallback(() => setErrors([]), []);
  return { errors, run, clear };
}
