import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/**
 * Work a request starts only once its answer has gone out. Forgot-password and sign-up must not tell an
 * outsider whether an address has an account, so whatever depends on that (looking the account up,
 * storing a token, mailing) cannot lengthen the answer; a slow mail server no longer holds it up either.
 * A failure is logged (the answer is already out); closing the app waits for the work still running.
 */
export function createAfterAnswer(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  return {
    run(reply: FastifyReply, what: string, work: () => Promise<void>): void {
      // 'close' follows a finished answer and an aborted one alike, so the work runs either way; it starts
      // on the next turn of the event loop, once the answer's bytes are on their way.
      reply.raw.once('close', () => {
        const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
          .then(work)
          .catch((error: unknown) => log.error({ err: error }, `failed after answering: ${what}`))
          .finally(() => running.delete(done));
        running.add(done);
      });
    },
    /** Resolves when no work is running (the app's onClose). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
export type AfterAnswer = ReturnType<typeof createAfterAnswer>;
