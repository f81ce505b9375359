import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** lib/ never imports the UI. */
const NO_UI = {
  group: ['@/components/*', '@/app/*', '@/pages.config', '**/components/*', '**/app/*', '**/pages.config'],
  message: 'lib/ must not import UI (components/, app/, pages.config.ts).',
};

/**
 * lib/sdk/index.ts is the SDK's only way in: what it exports is the public surface, and importing
 * from it keeps the lazily loaded parts (real-time, actors, connectors...) behind their dynamic
 * imports. Patterns are gitignore-style; `../sdk/*` and `../../sdk/*` are relative deep imports from
 * inside lib/ (a bare `**\/sdk/*` would also catch packages such as `@base44/sdk/...`).
 */
const SDK_ENTRY_ONLY = {
  group: ['@/lib/sdk/*', '**/lib/sdk/*', '../sdk/*', '../../sdk/*'],
  message: "Import the SDK from its entry ('@/lib/sdk'); export what you need from lib/sdk/index.ts.",
};

/** Tests of the SDK's internals, which may deep-import lib/sdk/*. */
const SDK_INTERNAL_TESTS = ['tests/unit/sdk/**', 'tests/integration/sdk/**', 'tests/integration/realtime/**', 'tests/conformance/**'];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layers point one way: library code never depends on the UI that uses it (page names live in
    // lib/site/page-names.ts, their components in pages.config.ts).
    files: ['lib/sdk/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_UI] }] },
  },
  {
    // The rest of lib/: no UI, and the SDK only through its entry (below).
    files: ['lib/**'],
    ignores: ['lib/sdk/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_UI, SDK_ENTRY_ONLY] }] },
  },
  {
    // lib/util is the floor every other part of lib/ (the SDK included) stands on: it imports nothing
    // from the project, so importing it never drags another layer along.
    files: ['lib/util/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/*', '../*', '../../*'], message: 'lib/util depends on nothing else in the project.' }] },
      ],
    },
  },
  {
    // Everything outside lib/ (app, components, tools, build, deploy, support, tests) reaches the
    // SDK through lib/sdk/index.ts. Only the SDK's own tests may open its internals.
    files: ['**/*.{js,mjs,cjs,jsx,ts,tsx,mts,cts}'],
    ignores: ['lib/**', ...SDK_INTERNAL_TESTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [SDK_ENTRY_ONLY] }] },
  },
  {
    // CommonJS files (Jest's custom environment) load their dependencies with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // eslint-config-next ignores build/ (a common output folder); ours holds source (the annotation loader).
  globalIgnores(['!build/**']),
  globalIgnores(['.next/**', 'out/**', 'out-*/**', 'node_modules/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', '.bench/**', 'public/vendor/**']),
]);
