import { describe, expect, it } from 'vitest';
import { WHMCS_PAGES, whmcsBaseUrl, whmcsPageUrl } from './billing.js';

describe('WHMCS addresses', () => {
  it('is https on 443 and http elsewhere, with the path between slashes', () => {
    expect(whmcsBaseUrl({ whmcsHost: 'billing.example.com', whmcsPort: 443, whmcsPath: 'whmcs' })).toBe(
      'https://billing.example.com/whmcs/',
    );
    expect(whmcsBaseUrl({ whmcsHost: '127.0.0.1', whmcsPort: 8081, whmcsPath: '/' })).toBe('http://127.0.0.1:8081/');
    expect(whmcsBaseUrl({ whmcsHost: 'https://b.example.com/', whmcsPort: 8443, whmcsPath: '/a/b/' })).toBe(
      'https://b.example.com:8443/a/b/',
    );
  });

  it('builds pages with their query, keeping a page that has one', () => {
    const server = { whmcsHost: 'b.example.com', whmcsPort: 443, whmcsPath: '/whmcs/' };
    expect(whmcsPageUrl(server, WHMCS_PAGES.invoice, { id: 12 })).toBe(
      'https://b.example.com/whmcs/viewinvoice.php?id=12',
    );
    expect(whmcsPageUrl(server, WHMCS_PAGES.productDetails, { id: 7 })).toBe(
      'https://b.example.com/whmcs/clientarea.php?action=productdetails&id=7',
    );
  });
});
