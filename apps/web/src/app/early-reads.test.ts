import {
  type Audience,
  CSRF_HEADER_NAME,
  EARLY_READS,
  EARLY_READS_ELEMENT_ID,
  matchPage,
  ROUTES,
  type StorageDetails,
  type TaskDetail,
  taskUrl,
} from '@portal/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarlyReads } from '../../early-reads-script';
import { fakeServer, ok } from '../features/users/testing';
import { getResult, routeCall } from './api';

const ref = { customerId: 3, packageId: 4, machineId: 5, taskId: 6 };
const AUDIENCES: Audience[] = ['customer', 'reseller', 'provider'];

/** The page's head as the server writes it: the CSRF token and, when the page has them, its first reads' paths. */
function renderedHead(reads: string[] | null) {
  document.head.innerHTML = `<meta name="_csrf" content="token-1"><meta name="_csrf_header" content="${CSRF_HEADER_NAME}">`;
  if (reads) {
    const node = document.createElement('script');
    node.id = EARLY_READS_ELEMENT_ID;
    node.type = 'application/json';
    node.textContent = JSON.stringify(reads);
    document.head.append(node);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
  window.portalEarlyReads = undefined;
});

describe("a task page's first reads, started by the build's early-reads script", () => {
  it("are the route table's task detail and storage calls: JSON GETs of the page's own path and its /storage, for every audience", () => {
    for (const audience of AUDIENCES) {
      const page = taskUrl(audience, ref);
      const key = matchPage(page);
      expect(key).toBe(`${audience}Task`);
      const { detail, storage } = ROUTES.tasks[audience];
      expect([detail.method, storage.method]).toEqual(['GET', 'GET']);
      const reads = (key && EARLY_READS[key]) ?? [];
      expect(reads.map((below) => `${page}${below}`)).toEqual([
        routeCall(detail, ref).path,
        routeCall(storage, ref).path,
      ]);
    }
  });

  it('are sent once each, with the headers of the app calls: the page takes the answers of the reads the script started', async () => {
    const task = { id: 6, name: 'Documents' } as TaskDetail;
    const storage = { usedSpaceInBytesForCurrentContent: 1 } as StorageDetails;
    const server = fakeServer((request) => ok(request.url.pathname.endsWith('/storage') ? storage : task));
    const page = taskUrl('customer', ref);
    renderedHead([page, `${page}/storage`]);
    startEarlyReads(EARLY_READS_ELEMENT_ID, CSRF_HEADER_NAME);
    expect(server.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([`GET ${page}`, `GET ${page}/storage`]);
    expect(server.fetchMock.mock.calls[0]?.[1]?.headers).toEqual({
      Accept: 'application/json',
      [CSRF_HEADER_NAME]: 'token-1',
    });
    expect(await getResult(routeCall(ROUTES.tasks.customer.detail, ref))).toEqual(task);
    expect(await getResult(routeCall(ROUTES.tasks.customer.storage, ref))).toEqual(storage);
    expect(server.requests).toHaveLength(2);
    // Taken once: a later read (a refresh) asks the server again.
    await getResult(routeCall(ROUTES.tasks.customer.detail, ref));
    await getResult(routeCall(ROUTES.tasks.customer.storage, ref));
    expect(server.requests).toHaveLength(4);
  });

  it('are none when the server named none (other pages, nobody signed in)', () => {
    const server = fakeServer(() => ok(null));
    renderedHead(null);
    startEarlyReads(EARLY_READS_ELEMENT_ID, CSRF_HEADER_NAME);
    expect(server.requests).toHaveLength(0);
  });
});
