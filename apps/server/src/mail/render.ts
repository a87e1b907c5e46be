import { brandLink, type MailMessage, mailSupportLine, mailTextPart } from '@portal/domain';
import type { ResolvedMailBrand } from './brand.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** Consecutive non-blank lines make a paragraph; blank lines separate them. */
function paragraphs(lines: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * A mail in its brand (issue 17): the plain-text part (mailTextPart) and an HTML part with the brand's header
 * colours, logo, link button and support contacts. Every value is escaped and every style is inline, as mail
 * clients drop style sheets.
 */
export function renderMail(message: MailMessage, brand: ResolvedMailBrand): RenderedMail {
  const c = brand.colours;
  const font = 'font-family:Arial,Helvetica,sans-serif';
  const logo = `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="40" style="display:block;height:40px;max-width:280px;border:0">`;
  const body = paragraphs(message.lines)
    .map((p) => `<p style="margin:0 0 12px 0">${p.map(escapeHtml).join('<br>')}</p>`)
    .join('');
  const link = message.link
    ? (() => {
        const href = escapeHtml(brandLink(brand, message.link.path));
        return (
          `<p style="margin:16px 0"><a href="${href}" style="display:inline-block;padding:10px 18px;background:${escapeHtml(c.button)};` +
          `color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold">${escapeHtml(message.link.label)}</a></p>` +
          `<p style="margin:0 0 12px 0;font-size:12px;color:#666666;word-break:break-all">${href}</p>`
        );
      })()
    : '';
  const support = mailSupportLine(brand);
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(message.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:${escapeHtml(c.background)}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${escapeHtml(c.background)};${font}">`,
    '<tr><td align="center" style="padding:16px">',
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border:1px solid #dddddd">',
    `<tr><td data-part="header" style="background:${escapeHtml(c.header)};color:${escapeHtml(c.headerText)};padding:12px 16px;${font}">${logo}</td></tr>`,
    `<tr><td style="padding:16px;color:#222222;font-size:14px;line-height:1.5;${font}">${body}${link}</td></tr>`,
    `<tr><td style="padding:12px 16px;color:#666666;font-size:12px;border-top:1px solid #dddddd;${font}">`,
    escapeHtml(brand.name),
    support ? `<br>${escapeHtml(support)}` : '',
    '</td></tr></table></td></tr></table></body></html>',
  ].join('');
  return { subject: message.subject, text: mailTextPart(message, brand), html };
}
