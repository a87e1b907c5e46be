import type { SimClient, SimInvoice, SimState } from './state.js';

const htmlText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface PageContext {
  /** The installation's base path, ending in '/'. */
  base: string;
  portalUrl: string | undefined;
  client: SimClient | undefined;
}

function layout(ctx: PageContext, title: string, body: string): string {
  const who = ctx.client
    ? `<p class="who">Signed in as ${htmlText(`${ctx.client.firstname} ${ctx.client.lastname}`)}</p>`
    : '';
  const back = ctx.portalUrl ? `<p><a href="${htmlText(ctx.portalUrl)}">Back to the portal</a></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${htmlText(title)} - WHMCS (simulator)</title>
<style>body{font-family:sans-serif;margin:2rem;max-width:48rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem}.Paid{color:green}.Unpaid{color:#b00}</style>
</head><body><header><strong>WHMCS (simulator)</strong>${who}</header><main><h1>${htmlText(title)}</h1>${body}</main>${back}</body></html>`;
}

const invoiceRows = (ctx: PageContext, invoices: readonly SimInvoice[]) =>
  invoices.length === 0
    ? '<p>No invoices.</p>'
    : `<table><thead><tr><th>Invoice #</th><th>Date</th><th>Description</th><th>Total</th><th>Status</th></tr></thead><tbody>${invoices
        .map(
          (i) =>
            `<tr><td><a href="${ctx.base}viewinvoice.php?id=${i.id}">${i.id}</a></td><td>${i.date}</td><td>${htmlText(i.description)}</td><td>${i.total.toFixed(2)}</td><td class="${i.status}">${i.status}</td></tr>`,
        )
        .join('')}</tbody></table>`;

export function invoicePage(ctx: PageContext, invoice: SimInvoice | undefined): string {
  if (!invoice) return layout(ctx, 'Invoice not found', '<p>There is no such invoice.</p>');
  const pay =
    invoice.status === 'Unpaid'
      ? `<form method="post" action="${ctx.base}viewinvoice.php?id=${invoice.id}"><button type="submit">Pay</button></form>`
      : '';
  return layout(
    ctx,
    `Invoice #${invoice.id}`,
    `<p>Status: <strong class="${invoice.status}">${invoice.status}</strong></p><p>${htmlText(invoice.description)}</p><p>Total: ${invoice.total.toFixed(2)}</p><p>Payment method: ${htmlText(invoice.paymentMethod)}</p>${pay}`,
  );
}

export function massPayPage(ctx: PageContext, unpaid: readonly SimInvoice[]): string {
  const pay =
    unpaid.length > 0
      ? `<form method="post" action="${ctx.base}clientarea.php?action=masspay&amp;all=true"><button type="submit">Pay all</button></form>`
      : '<p>All invoices are paid.</p>';
  return layout(ctx, 'Mass payment', `${invoiceRows(ctx, unpaid)}${pay}`);
}

export const invoicesPage = (ctx: PageContext, invoices: readonly SimInvoice[]) =>
  layout(ctx, 'My invoices', invoiceRows(ctx, invoices));

export function productPage(ctx: PageContext, state: SimState, serviceId: number): string {
  const service = state.services.find((s) => s.id === serviceId && s.clientId === ctx.client?.id);
  const product = service && state.products.find((p) => p.pid === service.pid);
  if (!service || !product) return layout(ctx, 'Product not found', '<p>There is no such product.</p>');
  return layout(
    ctx,
    'Product details',
    `<p>Product: <strong>${htmlText(product.name)}</strong></p><p>Status: ${service.status}</p>`,
  );
}

export const ticketsPage = (ctx: PageContext) => layout(ctx, 'Support tickets', '<p>You have no support tickets.</p>');

export const signInNeededPage = (ctx: PageContext) =>
  layout(ctx, 'Sign in', '<p>Open this page from the portal (Billing or Support) to be signed in.</p>');

export const ssoFailedPage = (ctx: PageContext) =>
  layout(
    ctx,
    'Single sign-on failed',
    '<p>The sign-in link has expired or was already used. Open it again from the portal.</p>',
  );
