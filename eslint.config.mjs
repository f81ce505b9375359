import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

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
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/components/*', '@/app/*', '@/pages.config', '**/components/*', '**/app/*', '**/pages.config'],
              message: 'lib/ must not import UI (components/, app/, pages.config.ts).',
            },
          ],
        },
      ],
    },
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
              target: ['./tools', './build', './deploy', './support'],
              from: './tests',
              message: 'Tools must not import tests/; share through support/.',
            },
          ],
        },
      ],
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
    files: ['emulator/auth/**', 'emulator/http/**', 'emulator/query/**', 'emulator/realtime/**', 'emulator/store/**', 'emulator/util/**', 'emulator/context.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/routes/*', '**/server', '**/cli', '**/seed', '@/emulator/routes/*', '@/emulator/server', '@/emulator/cli', '@/emulator/seed'],
              message: 'Lower emulator layers must not import routes/, server.ts, cli.ts or seed.ts: move the shared type to emulator/types.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['emulator/types.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['*', '.*'], message: 'emulator/types.ts is the bottom layer: it imports nothing.' }] }],
    },
  },
  // eslint-config-next ignores build/ (a common output folder); ours holds source (the annotation loader).
  globalIgnores(['!build/**']),
  globalIgnores(['.next/**', 'out/**', 'out-*/**', 'node_modules/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', '.bench/**', 'public/vendor/**']),
]);
