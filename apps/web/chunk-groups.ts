/**
 * Fewer, larger chunks (issue 31, phones). Left to itself, Rolldown makes a chunk for every set of screens that
 * shares a module: ~190 chunks, 117 of them under 1 KB gzip, and the task page loaded 58 of them before its first
 * paint (27 with the entry, 31 of its own). On Lighthouse's simulated phone each is a request over at most six
 * connections at a 150 ms round trip, which cost the task page's first paint more than their bytes did.
 *
 * 1. `initial`: the modules the entry loads statically go into one chunk beside the entry. They load on every page
 *    anyway; Rolldown split them only because later screens share them. Not the domain package and zod: the domain's
 *    index re-exports every module of the package, so the graph (which the `$initial` tag follows, before tree
 *    shaking) reaches the route table, the message catalogue and the schemas from the shell; those stay where
 *    Rolldown puts them (bench/initial-js.mjs fails when one of them reaches the first page). Their dependencies are
 *    not taken along for the same reason.
 * 2. `ui-kit`: the libraries the screens load on demand (react-bootstrap's dialogs, forms, tables and overlays, the
 *    query hooks), in one chunk that the first screen a route shows loads once. The large libraries only some
 *    screens use stay in chunks of their own, loaded by those screens: forms and schemas, the live channel, toasts.
 */
const KEPT_APART = /node_modules[\\/](zod|react-hook-form|@hookform|@stomp|react-toastify)[\\/]/;
const DOMAIN_OR_ZOD = /node_modules[\\/]zod[\\/]|packages[\\/]domain[\\/]/;

export const chunkGroups = {
  groups: [
    {
      name: 'initial',
      tags: ['$initial' as const],
      priority: 2,
      includeDependenciesRecursively: false,
      test: (id: string) => !DOMAIN_OR_ZOD.test(id),
    },
    {
      name: 'ui-kit',
      priority: 1,
      includeDependenciesRecursively: false,
      test: (id: string) => /node_modules[\\/]/.test(id) && !KEPT_APART.test(id),
    },
  ],
};
