/** Test-only: the task dialog's fake machine (live channel and tree replies); not imported by the app. */
import type { ServerMessage, TreeItem } from '@portal/domain';
import { treeItem } from '@portal/domain/testing/tree-items';
import type { ReactNode } from 'react';
import { type LiveChannelClient, LiveChannelContext } from '../../../app/live';
import { fakeServer, ok, reply } from '../../users/testing';

export interface SentFrame {
  destination: string;
  body: Record<string, unknown>;
}

/** What the fake machine answers a task command: a reply payload, or nothing (the 20 s time-out). */
export type CommandAnswer = { success: boolean; messages?: ServerMessage[] } | 'silent';

/**
 * A live channel whose machine answers newtask/edittask on the machine's queue with `answer(frame)`, like
 * the server does (002 §7.8: requestId and responsePayloadJson).
 */
export function fakeLiveChannel(answer: (frame: SentFrame) => CommandAnswer = () => ({ success: true })) {
  const listeners = new Map<string, Set<(body: string | null) => void>>();
  const sent: SentFrame[] = [];
  const client: LiveChannelClient = {
    subscribe(destination, listener) {
      const set = listeners.get(destination) ?? new Set();
      set.add(listener);
      listeners.set(destination, set);
      return () => set.delete(listener);
    },
    publish(destination, body) {
      const frame = { destination, body: body as Record<string, unknown> };
      sent.push(frame);
      const reply = answer(frame);
      if (reply === 'silent') return;
      const machineId = /\/backupmachines\/(\d+)\//.exec(destination)?.[1];
      const queue = `/ws/queue/backupmachines/${machineId}`;
      const answered = JSON.stringify({
        requestId: frame.body.createOrUpdateTaskRequestId,
        responsePayloadJson: JSON.stringify({ success: reply.success, messages: reply.messages ?? [] }),
      });
      queueMicrotask(() => {
        for (const listener of listeners.get(queue) ?? []) listener(answered);
      });
    },
    close() {},
  };
  const Provider = ({ children }: { children: ReactNode }) => (
    <LiveChannelContext.Provider value={client}>{children}</LiveChannelContext.Provider>
  );
  return { client, sent, Provider };
}

/** The machine's files: the children of each folder path ('' for the first level). */
export type MachineFiles = Record<string, TreeItem[]>;

export const SAMPLE_FILES: MachineFiles = {
  '': [treeItem('/home'), treeItem('/srv')],
  '/home': [treeItem('/home/ana'), treeItem('/home/bo'), treeItem('/home/.cache', { hidden: true })],
  '/home/ana': [
    treeItem('/home/ana/docs'),
    treeItem('/home/ana/notes.txt', { type: 'FILE', leaf: true, children: [] }),
  ],
  '/srv': [],
};

/**
 * The HTTP side: POST /backupmachines/{id}/treeitems answers the listed children (or what `tree` returns:
 * a Response for failures, a Promise to hold the answer back), GET .../definition answers `definition`.
 */
export function fakeMachineServer(
  options: {
    files?: MachineFiles;
    tree?: (path: string) => Response | Promise<Response> | undefined;
    definition?: unknown;
  } = {},
) {
  const files = options.files ?? SAMPLE_FILES;
  return fakeServer(({ method, url, body }) => {
    if (method === 'POST' && /^\/backupmachines\/\d+\/treeitems$/.test(url.pathname)) {
      const request = body as { treeItemsRequestId: string; path: string };
      const custom = options.tree?.(request.path);
      if (custom) return custom;
      const items = files[request.path];
      if (!items) return reply(502, { messages: [] });
      return ok({ treeItemsRequestId: request.treeItemsRequestId, treeItems: items, responseSummaryCode: 'OK' });
    }
    if (method === 'GET' && url.pathname.endsWith('/definition') && options.definition) return ok(options.definition);
    return undefined;
  });
}
