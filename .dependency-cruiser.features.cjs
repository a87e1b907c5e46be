// `npm run check:circles`, second pass: the server's feature folders (apps/server/src/features/<area>) depend on
// each other in one direction; no folder reaches itself through others. Product code only: a test may use
// another feature's helpers without making the features depend on each other.
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-features',
      severity: 'error',
      scope: 'folder',
      comment:
        'Features form a circle: move the shared piece down (http/, db/, ...) or let the lower feature declare ' +
        'what it is handed (a parameter or a type of its own).',
      from: { path: '^apps/server/src/features/[^/]+' },
      to: { path: '^apps/server/src/features/[^/]+', circular: true },
    },
  ],
  options: {
    ...base.options,
    includeOnly: '^apps/server/src/features/',
    exclude: { path: '(^|/)node_modules/|\\.test\\.ts$' },
  },
};
