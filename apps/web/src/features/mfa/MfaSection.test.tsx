import { fieldRequired, MFA_TEXTS, type MfaStatus } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, renderSignedOut } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { MfaSignInPage } from './MfaPages';
import { MfaSection } from './MfaSection';

afterEach(() => vi.unstubAllGlobals());

const OFF: MfaStatus = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
const ON: MfaStatus = { enabled: true, enabledAt: '2026-11-27T10:00:00Z', recoveryCodesLeft: 10, required: false };
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBB${i}`);

/** Types the password and the code 123456 asked for by regenerating or turning off, then presses `button`. */
async function confirmWith(user: ReturnType<typeof renderSignedIn>, password: string, button: string) {
  await user.type(screen.getByLabelText(MFA_TEXTS.passwordLabel), password);
  await user.type(screen.getByLabelText(MFA_TEXTS.codeLabel), '123456');
  await user.click(screen.getByRole('button', { name: button }));
}

describe('two-factor section of the profile (issue 18)', () => {
  it('enrols: shows the QR code and key, puts a refused code on its field, then shows the recovery codes once', async () => {
    let confirmations = 0;
    let status = OFF;
    const server = fakeServer(({ method, url }) => {
      if (url.pathname === '/profile/mfa') return ok(status);
      if (method === 'POST' && url.pathname === '/profile/mfa/enrolment') {
        return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/x', qrSvg: '<svg></svg>' });
      }
      if (url.pathname === '/profile/mfa/enrolment/confirm') {
        confirmations++;
        if (confirmations === 1) return reply(400, { messages: [message('code', MFA_TEXTS.codeInvalid)] });
        status = ON;
        return ok({ recoveryCodes: CODES });
      }
      return undefined;
    });
    const user = renderSignedIn(<MfaSection />);
    expect(await screen.findByText(MFA_TEXTS.off)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: MFA_TEXTS.start }));
    expect(await screen.findByTestId('mfa-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: /QR code/ })).toHaveAttribute('src', expect.stringContaining('svg'));

    // The schema's own check: nothing is sent without a code.
    await user.click(screen.getByRole('button', { name: MFA_TEXTS.confirm }));
    expect(await screen.findByText(fieldRequired(MFA_TEXTS.codeLabel))).toBeInTheDocument();
    expect(server.to('POST', '/profile/mfa/enrolment/confirm')).toEqual([]);

    const code = screen.getByLabelText(MFA_TEXTS.codeLabel);
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: MFA_TEXTS.confirm }));
    await waitFor(() => expect(code).toHaveClass('is-invalid'));
    expect(code.closest('.mb-3')).toHaveTextContent(MFA_TEXTS.codeInvalid);

    await user.clear(code);
    await user.type(code, '222222');
    await user.click(screen.getByRole('button', { name: MFA_TEXTS.confirm }));
    const list = await screen.findByTestId('recovery-codes');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(list).toHaveTextContent('AAAA0-BBBB0');
    expect(server.to('POST', '/profile/mfa/enrolment/confirm')[1]?.body).toEqual({ code: '222222' });
    expect(screen.getByRole('button', { name: MFA_TEXTS.copy })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MFA_TEXTS.download })).toBeInTheDocument();
    // The status says it is on while the codes still show, without a reload.
    await waitFor(() =>
      expect(screen.getByTestId('mfa-status')).toHaveTextContent(`${MFA_TEXTS.on} ${MFA_TEXTS.recoveryCodesLeft(10)}`),
    );
    expect(screen.getByTestId('recovery-codes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: MFA_TEXTS.done }));
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
    expect(screen.getByRole('button', { name: MFA_TEXTS.disable })).toBeInTheDocument();
  }, 20_000);

  it('new recovery codes: the status counts the new ones at once, while they show', async () => {
    let status: MfaStatus = { ...ON, recoveryCodesLeft: 3 };
    const server = fakeServer(({ url }) => {
      if (url.pathname === '/profile/mfa') return ok(status);
      if (url.pathname === '/profile/mfa/recoverycodes') {
        status = ON;
        return ok({ recoveryCodes: CODES });
      }
      return undefined;
    });
    const user = renderSignedIn(<MfaSection />);
    expect(await screen.findByTestId('mfa-status')).toHaveTextContent(MFA_TEXTS.recoveryCodesLeft(3));
    await confirmWith(user, 'secret password', MFA_TEXTS.regenerate);
    expect((await screen.findByTestId('recovery-codes')).querySelectorAll('li')).toHaveLength(10);
    await waitFor(() => expect(screen.getByTestId('mfa-status')).toHaveTextContent(MFA_TEXTS.recoveryCodesLeft(10)));
    expect(server.to('POST', '/profile/mfa/recoverycodes')[0]?.body).toEqual({
      password: 'secret password',
      code: '123456',
    });
  }, 20_000);

  it('turning off says so at once and offers to turn it on again', async () => {
    let status = ON;
    fakeServer(({ url }) => {
      if (url.pathname === '/profile/mfa') return ok(status);
      if (url.pathname === '/profile/mfa/disable') {
        status = OFF;
        return ok(OFF);
      }
      return undefined;
    });
    const user = renderSignedIn(<MfaSection />);
    expect(await screen.findByTestId('mfa-status')).toHaveTextContent(MFA_TEXTS.on);
    await confirmWith(user, 'secret password', MFA_TEXTS.disable);
    expect(await screen.findByText(MFA_TEXTS.off)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: MFA_TEXTS.start })).toBeInTheDocument();
  }, 20_000);

  it('turning off sends the password and code; a wrong password shows on its field', async () => {
    const server = fakeServer(({ url }) => {
      if (url.pathname === '/profile/mfa') return ok(ON);
      if (url.pathname === '/profile/mfa/disable') {
        return reply(400, { messages: [message('password', MFA_TEXTS.passwordWrong)] });
      }
      return undefined;
    });
    const user = renderSignedIn(<MfaSection />);
    expect(await screen.findByTestId('mfa-status')).toHaveTextContent(MFA_TEXTS.recoveryCodesLeft(10));
    await confirmWith(user, 'guess', MFA_TEXTS.disable);
    const password = screen.getByLabelText(MFA_TEXTS.passwordLabel);
    await waitFor(() => expect(password).toHaveClass('is-invalid'));
    expect(password.closest('.mb-3')).toHaveTextContent(MFA_TEXTS.passwordWrong);
    expect(server.to('POST', '/profile/mfa/disable')[0]?.body).toEqual({ password: 'guess', code: '123456' });
  }, 20_000);

  it('offers no Turn off while the account must use it', async () => {
    fakeServer(({ url }) => (url.pathname === '/profile/mfa' ? ok({ ...ON, required: true }) : undefined));
    renderSignedIn(<MfaSection />, { role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(await screen.findByRole('button', { name: MFA_TEXTS.regenerate })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MFA_TEXTS.disable })).toBeNull();
  }, 20_000);
});

describe('second step of sign-in (issue 18)', () => {
  it('sends the code and shows a refusal on the field', async () => {
    const server = fakeServer(({ url }) =>
      url.pathname === '/login/mfa' ? reply(400, { messages: [message('code', MFA_TEXTS.codeInvalid)] }) : undefined,
    );
    const user = renderSignedOut(<MfaSignInPage />);
    const code = screen.getByLabelText(MFA_TEXTS.codeLabel);
    await user.type(code, 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: MFA_TEXTS.verify }));
    await waitFor(() => expect(code).toHaveClass('is-invalid'));
    expect(code.closest('.mb-3')).toHaveTextContent(MFA_TEXTS.codeInvalid);
    expect(server.to('POST', '/login/mfa')[0]?.body).toEqual({ code: 'abcde-fghij' });
  }, 20_000);
});
