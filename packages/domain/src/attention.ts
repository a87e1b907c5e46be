import { MESSAGES } from './messages.js';

/**
 * The dashboard's 'Needs attention' list (issue 31): what in the caller's scope wants a look, newest first,
 * each item one click from its page. The server answers the newest items of every kind with each kind's
 * count, so the list is capped and still says how many there are.
 */

/**
 * Failed and missed tasks (their displayed status), stalled runs, machines over a quota and offline machines, and
 * tasks whose backup verification failed or is overdue (issue 32 item 3).
 */
export const ATTENTION_KINDS = [
  'TASK_FAILED',
  'TASK_MISSED',
  'RUN_STALLED',
  'OVER_QUOTA',
  'MACHINE_OFFLINE',
  'VERIFICATION_FAILED',
  'VERIFICATION_OVERDUE',
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** How many items the list shows (the newest); the counts cover every item. */
export const ATTENTION_LIST_SIZE = 10;

export interface AttentionItem {
  kind: AttentionKind;
  /**
   * When it began: the task's status changed, the run stalled, the machine went over quota or was last seen, the
   * task's verification failed or fell overdue.
   */
  at: string;
  customerName: string;
  machineName: string;
  /** The task of a task or run item; null for a machine's. */
  taskName: string | null;
  /** The page the item opens: the task's for a task or run, the machine's for a machine. */
  url: string;
}

export interface AttentionList {
  /** The newest items of the scope, at most ATTENTION_LIST_SIZE. */
  items: AttentionItem[];
  /** Every item of the scope, per kind. */
  counts: Record<AttentionKind, number>;
  /** Whether the scope holds any machine: without one the dashboard shows the next step instead. */
  hasMachines: boolean;
}

export const attentionTotal = (list: Pick<AttentionList, 'counts'>): number =>
  ATTENTION_KINDS.reduce((sum, kind) => sum + list.counts[kind], 0);

/** How many of the scope's items the list shows, when it shows fewer than there are. */
export const attentionShowingText = (shown: number, total: number): string => {
  const text = MESSAGES.dashboard.attention;
  return `${text.newest} ${shown} ${text.of} ${total}`;
};
