import { describe, expect, it } from 'vitest';
import type { ResolvedMailBrand } from './brand.js';
import { safeColour } from './brand.js';
import { renderMail } from './render.js';

const brand: ResolvedMailBrand = {
  name: 'Resell <Backup> & "Co"',
  origin: 'https://backup.reseller.test',
  supportEmail: 'help@reseller.test',
  supportPhone: null,
  logoUrl: 'https://backup.reseller.test/public/downloads/img/logo.png',
  colours: { header: '#123456', headerText: '#ffffff', button: '#00aa00', background: '#eeeeee' },
  smtp: null,
};

describe('rendering a mail in its brand (issue 17)', () => {
  const mail = renderMail(
    {
      subject: 'Backup failed',
      lines: ['Hello <b>Ana</b>,', '', 'The task "Docs & more" failed.', "It's <script>alert(1)</script>"],
      link: { label: 'Open the task', path: '/backupmachines/3/backuptasks/9?x="y"' },
    },
    brand,
  );

  it('escapes every value in the HTML part', () => {
    expect(mail.html).not.toContain('<b>Ana</b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Hello &lt;b&gt;Ana&lt;/b&gt;,');
    expect(mail.html).toContain('The task &quot;Docs &amp; more&quot; failed.');
    expect(mail.html).toContain('Resell &lt;Backup&gt; &amp; &quot;Co&quot;');
    expect(mail.html).toContain('href="https://backup.reseller.test/backupmachines/3/backuptasks/9?x=%22y%22"');
  });

  it('carries the logo, the header colours and the button colour inline, with no style sheet', () => {
    expect(mail.html).toContain('<img src="https://backup.reseller.test/public/downloads/img/logo.png"');
    expect(mail.html).toContain('background:#123456;color:#ffffff');
    expect(mail.html).toContain('background:#00aa00');
    expect(mail.html).not.toMatch(/<style|<link|class=/);
  });

  it('has a plain-text part with the same lines and the absolute link', () => {
    expect(mail.text).toContain('Hello <b>Ana</b>,');
    expect(mail.text).toContain('Open the task: https://backup.reseller.test/backupmachines/3/backuptasks/9?x=%22y%22');
    expect(mail.text).toContain('Support: help@reseller.test');
  });

  it('drops a colour that could break out of its style attribute', () => {
    expect(safeColour('#abc')).toBe('#abc');
    expect(safeColour('rgb(1, 2, 3)')).toBe('rgb(1, 2, 3)');
    expect(safeColour('red;background:url(x)')).toBeNull();
    expect(safeColour('"><script>')).toBeNull();
  });
});
