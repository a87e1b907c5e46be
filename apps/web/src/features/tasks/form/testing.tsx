/** Test-only: the task dialog's fake machine (its files and stored task); not imported by the app. */
import type { TreeItem } from '@portal/domain';
import { treeItem } from '@portal/domain/testing/tree-items';
import { fakeServer, ok, reply } from '../../users/testing';

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
