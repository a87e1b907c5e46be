import { MESSAGES } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedOut } from '../../app/testing';
import { ManualPage } from './ManualPage';

const TEXT = MESSAGES.manual;
const CHAPTERS = TEXT.chapters;

const onPlatform = (platform: string) => vi.spyOn(navigator, 'platform', 'get').mockReturnValue(platform);

afterEach(() => vi.restoreAllMocks());

describe('desktop-app user manual (000 §1)', () => {
  it("has the navbar title, the visitor's system as a badge and an index of numbered chapters", () => {
    onPlatform('Linux x86_64');
    renderSignedOut(<ManualPage />);
    expect(screen.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
    expect(document.title).toBe(`${TEXT.title} · Cloud Portal`);
    expect(screen.getByTestId('os-badge')).toHaveTextContent(`${TEXT.yourSystem}: Linux`);
    const index = screen.getByRole('navigation', { name: TEXT.contents });
    const entries = within(index)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(entries.slice(0, 4)).toEqual([
      [`1 ${CHAPTERS.overview}`, '#overview'],
      [`2 ${CHAPTERS.install}`, '#install'],
      [`2.1 ${CHAPTERS.installLinux}`, '#install-linux'],
      [`2.1.1 ${CHAPTERS.installLinuxUser}`, '#install-linux-user'],
    ]);
    expect(entries.at(-1)).toEqual([`7 ${CHAPTERS.uninstall}`, '#uninstall']);
  });

  it('sizes chapter headings 2, 1.5 and 1.25 rem by depth', () => {
    onPlatform('Linux x86_64');
    renderSignedOut(<ManualPage />);
    const top = screen.getByRole('heading', { level: 2, name: `1 ${CHAPTERS.overview}` });
    expect(top).toHaveStyle({ fontSize: '2rem' });
    const sub = screen.getByRole('heading', { level: 3, name: `2.4 ${CHAPTERS.installFiles}` });
    expect(sub).toHaveStyle({ fontSize: '1.5rem' });
    const deeper = screen.getByRole('heading', { level: 4, name: `2.1.2 ${CHAPTERS.installLinuxNoSystemd}` });
    expect(deeper).toHaveStyle({ fontSize: '1.25rem' });
    for (const heading of screen
      .getAllByRole('heading', { level: 2 })
      .filter((h) => /^\d+ /.test(h.textContent ?? ''))) {
      expect(heading).toHaveStyle({ fontSize: '2rem' });
    }
  });

  it("puts the visitor's system first among the install chapters, marked as theirs", () => {
    onPlatform('Win32');
    renderSignedOut(<ManualPage />);
    expect(screen.getByTestId('os-badge')).toHaveTextContent(`${TEXT.yourSystem}: Windows`);
    const windows = screen.getByRole('heading', { level: 3, name: new RegExp(`^2\\.1 ${CHAPTERS.installWindows}`) });
    expect(windows).toHaveTextContent(TEXT.forYourSystem);
    expect(screen.getByRole('heading', { level: 3, name: `2.2 ${CHAPTERS.installLinux}` })).not.toHaveTextContent(
      TEXT.forYourSystem,
    );
    // The Windows chapter shows the PowerShell line with this portal's address.
    const section = windows.closest('section') as HTMLElement;
    expect(section).toHaveTextContent(
      `irm '${window.location.origin}/public/downloads/agent/install.ps1?code=XXXX-XXXX-XXXX' | iex`,
    );
  });

  it('says when it cannot tell the system', () => {
    onPlatform('');
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('SomeBrowser/1.0');
    renderSignedOut(<ManualPage />);
    expect(screen.getByTestId('os-badge')).toHaveTextContent(`${TEXT.yourSystem}: ${TEXT.unknownSystem}`);
    expect(screen.getByRole('heading', { level: 3, name: `2.1 ${CHAPTERS.installLinux}` })).toBeVisible();
  });
});
