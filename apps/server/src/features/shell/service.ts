import { type Branding, requestHostName, resellerPortalHost } from '@portal/domain';
import { presentBranding } from './present.js';
import type { ShellRepo } from './repo.js';

/**
 * How long a host's brand is kept. A short time rather than invalidation: it is right across several server
 * instances with no message between them, and a reseller's changed colours or custom URL show within it.
 */
export const HOST_BRAND_TTL_MS = 30_000;
/** Hosts remembered at most (every Host header a client sends is a key, so the cache is bounded). */
const HOST_BRAND_CACHE_SIZE = 500;

export interface ShellServiceOptions {
  ttlMs?: number;
  now?: () => number;
}

export function createShellService(repo: ShellRepo, options: ShellServiceOptions = {}) {
  const ttlMs = options.ttlMs ?? HOST_BRAND_TTL_MS;
  const now = options.now ?? Date.now;
  const byHost = new Map<string, { branding: Branding | null; expires: number }>();

  async function lookUpHost(host: string): Promise<Branding | null> {
    const candidates = await repo.brandCandidatesForHost(host);
    const match = candidates.find((c) => resellerPortalHost(c.customUrl) === host);
    return presentBranding(match ?? null);
  }

  return {
    /** The brand of a signed-in user's pages: their reseller's, or their own as a reseller (000 §1). */
    async brandingFor(customerId: number | null): Promise<Branding | null> {
      return presentBranding(await repo.brandFor(customerId));
    },

    /**
     * The brand of a page opened before sign-in, from the request's host: the enabled reseller whose custom
     * URL names that host, else the provider's (null).
     */
    async brandingForHost(hostHeader: string | undefined): Promise<Branding | null> {
      const host = requestHostName(hostHeader);
      if (!host) return null;
      const cached = byHost.get(host);
      if (cached && cached.expires > now()) return cached.branding;
      const branding = await lookUpHost(host);
      byHost.delete(host);
      if (byHost.size >= HOST_BRAND_CACHE_SIZE) byHost.delete(byHost.keys().next().value as string);
      byHost.set(host, { branding, expires: now() + ttlMs });
      return branding;
    },

    /** Forgets the remembered hosts: this instance shows a changed brand at once (others within the TTL). */
    forgetHostBrands(): void {
      byHost.clear();
    },
  };
}
export type ShellService = ReturnType<typeof createShellService>;
