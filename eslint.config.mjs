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

/**
 * The emulator's floors, from the ground up: a room may import its own floor and the floors below,
 * never a floor above (no upward arrow, so no cycle between rooms). Files at emulator/'s root
 * (the agent responder) stand on the ground floor.
 */
const EMULATOR_FLOORS = [
  ['core', 'util'],
  ['entities', 'query', 'credentials', 'functions'],
  ['store', 'http'],
  ['instance'],
  ['auth'],
  ['model'],
  ['records'],
  ['realtime', 'pages'],
  ['routes'],
  ['seed'],
  ['start'],
];

/** Build settings have one reader, lib/config/env.ts (a no-restricted-syntax entry). */
const BUILD_SETTINGS_READ = {
  selector:
    "MemberExpression[object.object.name='process'][object.property.name='env'][property.name=/^(NEXT_PUBLIC_|NODE_ENV$)/]",
  message: 'Read build settings through lib/config/env.ts (readBuildEnv, buildEnvFrom, isDevelopmentBuild).',
};

/**
 * The store's state is its own (emulator/store/): others read it through named reads and change it
 * through `store.write(change => ...)`, which owns the order budget, write, durable commit, publish.
 */
const STORE_STATE_MESSAGE =
  'Read the store through its named reads and change it through store.write((change) => change.<operation>(...)) (emulator/store/change.ts).';
const STORE_STATE = [
  {
    selector:
      ":matches(MemberExpression[object.name='store'], MemberExpression[object.property.name='store'])[property.name=/^(data|commit|collection|existingCollection|tables)$/]",
    message: STORE_STATE_MESSAGE,
  },
  {
    selector:
      ":matches(AssignmentExpression > MemberExpression.left, UnaryExpression[operator='delete'] > MemberExpression, UpdateExpression > MemberExpression) Identifier[name='store']",
    message: `Nothing is assigned or deleted through the store. ${STORE_STATE_MESSAGE}`,
  },
];

/** Records are written only by emulator/records/ (rules, validation, publish). */
const RECORD_WRITES = {
  selector: 'CallExpression > MemberExpression.callee[property.name=/^(insertRecords|replaceRecords|deleteRecords)$/]',
  message: 'Only emulator/records/ writes records: call its write operations (records/commit.ts is their door).',
};

/** How long a function may be (lines of code, blank lines and comments aside). */
const FUNCTION_LENGTH = { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true };

/** Below routes/, failures are domain errors (core/errors.ts); only http/ maps them to a status. */
const NO_HTTP_ERROR = {
  group: ['**/http/errors', '@/emulator/http/errors'],
  importNames: ['HttpError'],
  message: 'Below routes/, raise a DomainError (emulator/core/errors.ts); only http/ maps it to a status.',
};

function emulatorFloors() {
  const routesFloor = EMULATOR_FLOORS.findIndex((rooms) => rooms.includes('routes'));
  return EMULATOR_FLOORS.map((rooms, floor) => {
    const above = EMULATOR_FLOORS.slice(floor + 1).flat();
    const patterns = [
      {
        group: above.flatMap((room) => [`**/${room}/*`, `@/emulator/${room}/*`]),
        message: `emulator/{${rooms.join(',')}}/ may not import a room on a floor above it (${above.join(', ')}); move what both need down (eslint.config.mjs, EMULATOR_FLOORS).`,
      },
      // These blocks replace the SDK-entry rule above for these files, so they repeat it.
      SDK_ENTRY_ONLY,
    ];
    if (floor < routesFloor) patterns.push(NO_HTTP_ERROR);
    const files = rooms.map((room) => `emulator/${room}/**`);
    if (floor === 0) files.push('emulator/*.ts');
    return {
      files,
      rules: { 'no-restricted-imports': ['error', { patterns: above.length ? patterns : [SDK_ENTRY_ONLY] }] },
    };
  });
}

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
    // Code lines only (comments and blank lines aside); tests aside.
    files: ['{lib,components,app,deploy,emulator}/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', FUNCTION_LENGTH] },
  },
  {
    // Build settings have one owner, lib/config/env.ts, which reads each variable once and hands the
    // values on (readBuildEnv, buildEnvFrom, isDevelopmentBuild). Tests set them; next.config.mjs is
    // loaded by Next natively and cannot import TypeScript.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['lib/config/env.ts', 'tests/**', 'next.config.mjs'],
    rules: {
      'no-restricted-syntax': ['error', BUILD_SETTINGS_READ],
    },
  },
  {
    // CommonJS files (Jest's custom environment) load their dependencies with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...emulatorFloors(),
  {
    // The store is written only through its one commit path with named operations
    // (`store.write(change => change.addFile(...))`, emulator/store/change.ts); records only by
    // emulator/records/, which validates, applies the rules and publishes. Outside the store nothing
    // reaches its state or commits it, and nothing is assigned or deleted through it.
    files: ['emulator/**/*.ts'],
    ignores: ['emulator/records/**', 'emulator/store/**'],
    rules: { 'no-restricted-syntax': ['error', ...STORE_STATE, RECORD_WRITES, BUILD_SETTINGS_READ] },
  },
  {
    // A later block's no-restricted-syntax replaces an earlier one's, so each repeats what still applies.
    files: ['emulator/records/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...STORE_STATE, BUILD_SETTINGS_READ] },
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
