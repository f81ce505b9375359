/**
 * Import rules that ESLint's import plugins cannot check (run by `npm run lint`, after ESLint).
 * eslint-plugin-import's `import/no-cycle` skips type-only imports; a cycle through types still ties
 * two files together (neither can be read, moved or split alone), so cycles are checked here, with
 * TypeScript's own view of every import, type-only ones included.
 */
const OUTSIDE_TESTS = '^(?!tests/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, directly or through others (type-only imports count).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lazy-chunk-door',
      severity: 'error',
      comment:
        'A file named *.lazy.ts is the door of a chunk loaded on first use: reach it only with import() ' +
        '(or for types), so its code and what only it imports stay out of the bundle that imports it.',
      from: { path: OUTSIDE_TESTS },
      to: { path: '\\.lazy\\.ts$', dependencyTypesNot: ['dynamic-import', 'type-only', 'type-import'] },
    },
    {
      name: 'realtime-socket-chunk',
      severity: 'error',
      comment:
        'lib/sdk/realtime/socket/ is the real-time chunk (it comes with socket.io-client): code outside ' +
        'it reaches it only through the loader’s import(), or for types.',
      from: { path: OUTSIDE_TESTS, pathNot: '^lib/sdk/realtime/socket/' },
      to: { path: '^lib/sdk/realtime/socket/', dependencyTypesNot: ['dynamic-import', 'type-only', 'type-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '^(node_modules|\\.next|out|out-[^/]+|coverage|\\.bench|test-results|playwright-report|public/vendor)/',
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.cjs', '.js', '.json'] },
  },
};
