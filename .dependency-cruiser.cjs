// `npm run check:circles` (part of `npm run lint`), first pass: no file of the four projects imports itself
// through others, tests and their helpers included. Type-only imports count (`import type` is erased at
// build time, but a circle of types still ties the files together): see the README's architecture section.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file imports itself through others: move the shared piece into a file both import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
