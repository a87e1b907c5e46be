import { CSRF_HEADER_NAME, type InitialData } from '@portal/domain';

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/** Initial data and CSRF token the server wrote into index.html (DESIGN §3). */
export function readInitialData(): InitialData {
  const node = document.getElementById('initial-data');
  const fallback: InitialData = {
    user: null,
    branding: null,
    providerSiteUrl: null,
    version: '',
    commitId: '',
    demo: false,
  };
  if (!node?.textContent) return fallback;
  try {
    return JSON.parse(node.textContent) as InitialData;
  } catch {
    return fallback;
  }
}

export function csrfToken(): { header: string; token: string } {
  return { header: meta('_csrf_header') || CSRF_HEADER_NAME, token: meta('_csrf') };
}

/** The headers of every call: JSON answers, and the CSRF token (the server asks for it on each call that changes state). */
export function callHeaders(): Record<string, string> {
  const { header, token } = csrfToken();
  return { Accept: 'application/json', [header]: token };
}
