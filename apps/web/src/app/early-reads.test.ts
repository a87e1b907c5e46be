import { type Audience, matchPage, ROUTES, type StorageDetails, type TaskDetail, taskUrl } from '@portal/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, ok } from '../features/users/testing';
import { getResult, routeCall } from './api';
import { startPageRead } from './early-reads';

const ref = { customerId: 3, packageId: 4, machineId: 5, taskId: 6 };
const AUDIENCES: Audience[] = ['customer', 'reseller', 'provider'];

/** The page's initial data as the server writes it, signed in or not. */
function signedIn(yes: boolean) {
  document.getElementById('initial-data')?.remove();
  const node = document.createElement('script');
  node.id = 'initial-data';
  node.type = 'application/json';
  node.textContent = JSON.stringify({ user: yes ? { id: 1 } : null, branding: null });
  document.head.append(node);
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.getElementById('initial-data')?.remove();
});

describe("a task page's first read, started by the entry script", () => {
  it("is the route table's task detail and storage calls: JSON GETs of the page's own path and its /storage, for every audience", () => {
    for (const audience of AUDIENCES) {
      const page = taskUrl(audience, ref);
      expect(matchPage(page)).toBe(`${audience}Task`);
      const { detail, storage } = ROUTES.tasks[audience];
      expect(detail.method).toBe('GET');
      expect(routeCall(detail, ref).path).toBe(page);
      expect(storage.method).toBe('GET');
      expect(routeCall(storage, ref).path).toBe(`${page}/storage`);
    }
  });

  it('is sent once each: the page takes the answers of the reads the entry started', async () => {
    signedIn(true);
    const task = { id: 6, name: 'Documents' } as TaskDetail;
    const storage = { usedSpaceInBytesForCurrentContent: 1 } as StorageDetails;
    const server = fakeServer((request) => ok(request.url.pathname.endsWith('/storage') ? storage : task));
    const page = taskUrl('customer', ref);
    startPageRead(page);
    expect(server.requests).toHaveLength(2);
    expect(await getResult(routeCall(ROUTES.tasks.customer.detail, ref))).toEqual(task);
    expect(await getResult(routeCall(ROUTES.tasks.customer.storage, ref))).toEqual(storage);
    expect(server.requests).toHaveLength(2);
    // Taken once: a later read (a refresh) asks the server again.
    await getResult(routeCall(ROUTES.tasks.customer.detail, ref));
    await getResult(routeCall(ROUTES.tasks.customer.storage, ref));
    expect(server.requests).toHaveLength(4);
  });

  it('is not started for other pages, nor when nobody is signed in', () => {
    const server = fakeServer(() => ok(null));
    signedIn(true);
    startPageRead('/');
    startPageRead('/backupmachines/5');
    signedIn(false);
    startPageRead(taskUrl('customer', ref));
    expect(server.requests).toHaveLength(0);
  });
});
