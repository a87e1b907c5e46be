/** Test-only: a fake server for the users and account component tests (not imported by the app). */
import type { ResponseSummaryCode, Role, ServerMessage, UserMachineRow, UserPackageRow, UserRow } from '@portal/domain';
import { vi } from 'vitest';
import { packageFields } from '../packages/testing';

export interface Envelope {
  status: 'OK' | 'ERROR';
  messages: ServerMessage[];
  responseSummaryCode: ResponseSummaryCode;
  result: unknown;
}

export function reply(httpStatus: number, envelope: Partial<Envelope>): Response {
  const body: Envelope = {
    status: httpStatus < 300 ? 'OK' : 'ERROR',
    messages: [],
    responseSummaryCode: httpStatus < 300 ? 'OK' : 'ERROR',
    result: null,
    ...envelope,
  };
  return new Response(JSON.stringify(body), { status: httpStatus, headers: { 'Content-Type': 'application/json' } });
}

export const ok = (result: unknown, messages: ServerMessage[] = []) => reply(200, { result, messages });

export const message = (fieldName: string, text: string): ServerMessage => ({
  type: 'ERROR',
  fieldName,
  message: text,
  responseCode: 'VALIDATION',
});

/** A page of rows as a paged call answers it. */
export function paged<T>(rows: T[], url: URL, defaultSize = 10) {
  const page = Number(url.searchParams.get('page') ?? 0);
  const size = Number(url.searchParams.get('size') ?? defaultSize);
  return {
    elements: rows.slice(page * size, (page + 1) * size),
    totalElements: rows.length,
    totalPages: Math.ceil(rows.length / size),
  };
}

export interface Request {
  method: string;
  url: URL;
  body: unknown;
}

type Handler = (request: Request) => Response | Promise<Response> | undefined;

/**
 * Stubs fetch with `handler`; what it leaves unanswered is a 404 envelope. Answers the recorded requests
 * (JSON bodies parsed, FormData kept as is).
 */
export function fakeServer(handler: Handler) {
  const requests: Request[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://portal.test');
    const raw = init?.body;
    const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const request = { method: init?.method ?? 'GET', url, body };
    requests.push(request);
    return (await handler(request)) ?? reply(404, { responseSummaryCode: 'NOT_FOUND' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    fetchMock,
    /** The requests of one method and path (query left out). */
    to: (method: string, path: string) => requests.filter((r) => r.method === method && r.url.pathname === path),
  };
}

let nextId = 100;

export function userRow(overrides: Partial<UserRow> = {}): UserRow {
  const id = overrides.id ?? nextId++;
  const role: Role = overrides.role ?? 'ROLE_CUSTOMER_USER';
  return {
    id,
    firstName: 'Megan',
    surname: 'Bowen',
    email: `user${id}@example.test`,
    contactNumber: '0123456789',
    readOnly: false,
    role,
    roleName: 'User',
    status: 'ACTIVE',
    numberOfLinkedBackupPackages: 0,
    numberOfLinkedBackupMachines: 0,
    deleteable: true,
    deleteBlockedReason: null,
    manageableByLoggedInUser: true,
    userUrl: `/admin/account/users/${id}`,
    ...overrides,
  };
}

export function userPackageRow(overrides: Partial<UserPackageRow> = {}): UserPackageRow {
  const id = overrides.id ?? nextId++;
  return {
    ...packageFields(id),
    numberOfBackupMachines: 1,
    storageLocation: { id: 1 },
    accessibleByLoggedInUser: true,
    manageable: true,
    backupPackageUrl: `/admin/backuppackages/${id}`,
    unlinkable: true,
    unlinkTooltip: 'Unlink',
    ...overrides,
  };
}

export function userMachineRow(overrides: Partial<UserMachineRow> = {}): UserMachineRow {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `PC-${id}`,
    status: 'ACTIVE',
    description: 'Office PC',
    operatingSystem: 'Windows 11',
    usedBytes: 5 * 1024 ** 3,
    numberOfBackupTasks: 2,
    manageable: true,
    backupMachineUrl: `/backupmachines/${id}`,
    ...overrides,
  };
}
