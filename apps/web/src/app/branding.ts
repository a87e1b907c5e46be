import { type Branding, brandColourVariables, brandFaviconUrl, brandNameOf, documentTitle } from '@portal/domain';
import { type CSSProperties, useEffect, useLayoutEffect } from 'react';

/**
 * The brand's colours over the defaults of 000 §9 as CSS variables the stylesheet reads. Set through a style
 * object (one property each), never written into CSS text; the domain lets only hex colours through.
 */
export function brandingStyle(branding: Branding | null): CSSProperties {
  return brandColourVariables(branding) as CSSProperties;
}

/** The document's icon link: the one in index.html, or a new one. */
function iconLink(): HTMLLinkElement {
  const existing = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (existing) return existing;
  const link = document.createElement('link');
  link.rel = 'icon';
  document.head.appendChild(link);
  return link;
}

/**
 * Names the document after the brand (002 §1: where the product names itself) and gives it the brand's
 * favicon, else the provider's. `title` is the page's own title, put before the brand name; a page in the shell
 * (ui/Page) names the tab itself.
 */
export function useBrandedDocument(branding: Branding | null, title?: string): void {
  const brand = brandNameOf(branding);
  const favicon = brandFaviconUrl(branding);
  // A layout effect, so that it runs before the effect of the page inside, which names the tab after itself.
  useLayoutEffect(() => {
    document.title = documentTitle(title, brand);
  }, [title, brand]);
  useEffect(() => {
    iconLink().href = favicon;
  }, [favicon]);
}
