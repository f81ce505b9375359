import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { defineConfig, globalIgnores } from 'eslint/config';

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
const SDK_INTERNAL_TESTS = [
  'tests/unit/sdk/**',
  'tests/integration/sdk/**',
  'tests/integration/realtime/**',
  'tests/conformance/**',
];

/** Files whose long functions another branch of this round is splitting (see the rule below). */
const FUNCTION_LENGTH_PENDING = ['lib/sdk/auth/auth.ts', 'lib/sdk/realtime/socket/realtime.lazy.ts'];

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
        {
          patterns: [
            { group: ['@/*', '../*', '../../*'], message: 'lib/util depends on nothing else in the project.' },
          ],
        },
      ],
    },
  },
  {
    // Everything outside lib/ (app, components, tools, build-steps, deploy, support, tests) reaches the
    // SDK through lib/sdk/index.ts. Only the SDK's own tests may open its internals.
    files: ['**/*.{js,mjs,cjs,jsx,ts,tsx,mts,cts}'],
    ignores: ['lib/**', ...SDK_INTERNAL_TESTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [SDK_ENTRY_ONLY] }] },
  },
  {
    // Tools are entry points run by npm scripts: tests never import them, and tools, build steps and
    // the static host never import tests. What both need lives in support/.
    files: ['**/*.{ts,tsx}'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './tests', from: './tools', message: 'Tests must not import tools/; share through support/.' },
            {
              target: ['./tools', './build-steps', './deploy', './support'],
              from: './tests',
              message: 'Tools must not import tests/; share through support/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A function over 80 lines is a structure waiting to be named: split it by what its parts do.
    // Code lines only (comments and blank lines aside); tests aside. Two SDK functions are being
    // split on their own branches (createAuthModule: r4/dropin-firstload, createRealtime:
    // r4/live-queries) and emulator/ follows its records layer (r4/records): each joins here then.
    files: ['{lib,components,app,deploy}/**/*.{ts,tsx}'],
    ignores: [...FUNCTION_LENGTH_PENDING],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // CommonJS files (Jest's custom environment) load their dependencies with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The emulator's layers point one way: routes -> auth / http / store / query -> types.ts. The lower
    // layers never reach up into the routes, the server that wires them, or the seed loader; shared
    // shapes belong in emulator/types.ts, which imports nothing.
    files: [
      'emulator/auth/**',
      'emulator/entities/**',
      'emulator/functions-runtime/**',
      'emulator/http/**',
      'emulator/model/**',
      'emulator/query/**',
      'emulator/realtime/**',
      'emulator/store/**',
      'emulator/util/**',
      'emulator/core/**',
      'emulator/context.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/routes/*',
                '**/server',
                '**/cli',
                '**/seed',
                '@/emulator/routes/*',
                '@/emulator/server',
                '@/emulator/cli',
                '@/emulator/seed',
              ],
              message:
                'Lower emulator layers must not import routes/, server.ts, cli.ts or seed.ts: move the shared type to emulator/types.ts.',
            },
            {
              // Only http/ speaks HTTP: below the routes, failures are domain errors (core/errors.ts),
              // which http/errors.ts maps to a status in one place.
              group: ['**/http/errors', '@/emulator/http/errors'],
              importNames: ['HttpError'],
              message: 'Below routes/, raise a DomainError (emulator/core/errors.ts); only http/ maps it to a status.',
            },
            // This block replaces the SDK-entry rule above for these files, so it repeats it.
            SDK_ENTRY_ONLY,
          ],
        },
      ],
    },
  },
  {
    files: ['emulator/types.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['*', '.*'], message: 'emulator/types.ts is the bottom layer: it imports nothing.' }] },
      ],
    },
  },
  globalIgnores([
    '.next/**',
    'out/**',
    'out-*/**',
    'node_modules/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
    '.bench/**',
    'public/vendor/**',
  ]),
]);
