import {
  type CustomerAccount,
  MFA_ENROLMENT_REQUIRED_CODE,
  MFA_TEXTS,
  PAGES,
  ROUTES,
  type UserRow,
} from '@portal/domain';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { fakeServer, ok, reply, userRow } from '../features/users/testing';
import { CommunicationError, call, getResult, routeCall } from './api';
import { signOut } from './sign-out';

afterEach(() => vi.unstubAllGlobals());

describe('calls through the route table', () => {
  it("sends the entry's method to its built path, with the query and the body", async () => {
    const user = userRow({ id: 3 });
    const server = fakeServer(() => ok(user));
    const body = { firstName: 'Ada', surname: 'Lovelace', email: 'ada@example.test', contactNumber: '' };
    const answer = await call(ROUTES.users.edit, { userId: 3 }, body);
    expect(answer.ok).toBe(true);
    expect(answer.envelope.result).toEqual(user);
    expectTypeOf(answer.envelope.result).toEqualTypeOf<UserRow | null>();
    await call(ROUTES.customers.reseller.changeStatus, { customerId: 4 }, undefined, { status: 'SUSPENDED' });
    const [edit, status] = server.requests;
    expect(edit?.method).toBe('PUT');
    expect(edit?.url.pathname).toBe('/admin/account/users/3');
    expect(edit?.body).toEqual(body);
    expect(status?.method).toBe('PUT');
    expect(`${status?.url.pathname}${status?.url.search}`).toBe('/admin/mycustomers/4?status=SUSPENDED');
  });

  it('refuses an id that is not a positive whole number before anything is sent', () => {
    const server = fakeServer(() => ok(null));
    expect(() => routeCall(ROUTES.users.detail, { userId: 0 })).toThrow(RangeError);
    expect(server.requests).toHaveLength(0);
  });

  it("reads the entry's result, and throws when the answer is an error", async () => {
    const account = { companyName: 'Contoso Ltd' } as CustomerAccount;
    fakeServer(({ url }) => (url.pathname === '/admin/account' ? ok(account) : reply(403, {})));
    const result = await getResult(routeCall(ROUTES.account.get, {}));
    expect(result).toEqual(account);
    expectTypeOf(result).toEqualTypeOf<CustomerAccount>();
    await expect(getResult(routeCall(ROUTES.users.list, {}), 'page=0&size=10')).rejects.toBeInstanceOf(
      CommunicationError,
    );
  });

  it('opens the enrolment page when two-factor sign-in became required during the session, and not for other 403s', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const refusal = (responseCode: string) =>
      reply(403, { messages: [{ type: 'ERROR', fieldName: '', message: MFA_TEXTS.enrolmentRequired, responseCode }] });
    fakeServer(({ url }) => refusal(url.pathname === '/admin/account' ? MFA_ENROLMENT_REQUIRED_CODE : 'FORBIDDEN'));
    expect((await call(ROUTES.users.list, {})).ok).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect((await call(ROUTES.account.get, {})).ok).toBe(false);
    expect(assign).toHaveBeenCalledWith(PAGES.mfaEnrol);
  });

  it("sends a 401 to 'session expired', but not once the user has asked to sign out", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fakeServer(() => reply(401, { messages: [] }));
    expect((await call(ROUTES.users.list, {})).ok).toBe(false);
    expect(assign).toHaveBeenLastCalledWith('/login?expired');
    assign.mockClear();
    // A request still under way when the sign-out ends the session: the signed-out page wins.
    await signOut();
    expect((await call(ROUTES.users.list, {})).ok).toBe(false);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalledWith('/login?expired');
  });
});
