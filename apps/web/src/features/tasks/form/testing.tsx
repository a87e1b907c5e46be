/** Test-only: the task dialog's fake machine (its files and stored task); not imported by the app. */
import type { TreeItem } from '@portal/domain';
import { treeItem } from '@portal/domain/testing/tree-items';
import { fakeServer, ok, type Request, reply } from '../../users/testing';

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

export interface MachineTreeOptions {
  files?: MachineFiles;
  /** Answers a folder's listing itself: a Response for failures, a Promise to hold the answer back. */
  tree?: (path: string) => Response | Promise<Response> | undefined;
}

/**
 * POST /backupmachines/{id}/treeitems as the machine answers it: the listed children (or what `tree` returns);
 * undefined for any other call, so a test's own fake server can answer those.
 */
export function machineTreeAnswer(options: MachineTreeOptions = {}) {
  const files = options.files ?? SAMPLE_FILES;
  return ({ method, url, body }: Request): Response | Promise<Response> | undefined => {
    if (method !== 'POST' || !/^\/backupmachines\/\d+\/treeitems$/.test(url.pathname)) return undefined;
    const request = body as { treeItemsRequestId: string; path: string };
    const custom = options.tree?.(request.path);
    if (custom) return custom;
    const items = files[request.path];
    if (!items) return reply(502, { messages: [] });
    return ok({ treeItemsRequestId: request.treeItemsRequestId, treeItems: items, responseSummaryCode: 'OK' });
  };
}

/** The task dialog's HTTP side: the machine's tree (machineTreeAnswer), and GET .../definition answers `definition`. */
export function fakeMachineServer(options: MachineTreeOptions & { definition?: unknown } = {}) {
  const tree = machineTreeAnswer(options);
  return fakeServer((request) => {
    const answer = tree(request);
    if (answer) return answer;
    if (request.method === 'GET' && request.url.pathname.endsWith('/definition') && options.definition) {
      return ok(options.definition);
    }
    return undefined;
  });
}
