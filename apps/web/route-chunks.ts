import type { Plugin } from 'vite';
import { type PageKey, ROUTE_CHUNKS_FILE, type RouteChunks } from '../../packages/domain/src/routes';

/**
 * The screen module each preloaded page loads (AppRoutes.tsx's lazy imports): the task page, on a phone the slowest
 * to show (issue 31, phones), and sign-in, whose screen is its first paint but no part of the entry script (the
 * signed-in pages never show it). Not the dashboard: its largest paint is the header's logo, and its chunks preloaded
 * beside it delayed that paint on the phone's network (LCP 2.6 s without them, 3.5 s with; bench/RESULTS.md).
 */
const PRELOADED_PAGES: Partial<Record<PageKey, string>> = {
  login: 'src/features/auth/LoginPage.tsx',
  customerTask: 'src/features/tasks/TaskPage.tsx',
  resellerTask: 'src/features/tasks/TaskPage.tsx',
  providerTask: 'src/features/tasks/TaskPage.tsx',
};

interface Chunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
}

/** A chunk and every chunk it imports statically, by file name. */
function withImports(chunks: ReadonlyMap<string, Chunk>, start: string, into = new Set<string>()): Set<string> {
  if (into.has(start)) return into;
  into.add(start);
  for (const next of chunks.get(start)?.imports ?? []) withImports(chunks, next, into);
  return into;
}

/**
 * Writes, beside index.html, each preloaded page's chunks that the entry does not already load (ROUTE_CHUNKS_FILE):
 * the server names them as module preloads in the page it renders for that address, so they load beside the entry
 * instead of after it has run (on Lighthouse's phone network, one round trip and the entry's run later).
 */
export function routeChunks(): Plugin {
  return {
    name: 'portal-route-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const entryLoads = withImports(chunks, entry.fileName);
      const map: RouteChunks = {};
      for (const [page, module] of Object.entries(PRELOADED_PAGES) as [PageKey, string][]) {
        const screen = [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(`/apps/web/${module}`));
        if (!screen) this.error(`${module} (page ${page}) is no chunk of the build`);
        map[page] = [...withImports(chunks, screen.fileName)]
          .filter((file) => !entryLoads.has(file))
          .map((file) => `/${file}`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: JSON.stringify(map) });
    },
  };
}
