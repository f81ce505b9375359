import nextJest from 'next/jest.js';

// next/jest gives every project Next's SWC transform and tsconfig paths.
const createJestConfig = nextJest({ dir: './' });

const shared = {
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/out/', '/tests/e2e/'],
};

/**
 * The unit tests that take most of the unit tests' time: the proof of the lint rules (it runs
 * ESLint, dependency-cruiser and TypeScript) and the planner's 10,000-case property test. They run
 * in a project of their own, so that `npm run test:unit` stays a loop of under a minute; `npm test`
 * runs them with everything else.
 */
const SLOW_UNIT_TESTS = ['tests/unit/lint/lint-config.test.ts', 'tests/unit/emulator/query/index-property.test.ts'];

const unitEnvironment = {
  testEnvironment: '<rootDir>/tests/support/jsdom-with-node-fetch.cjs',
  setupFilesAfterEnv: ['<rootDir>/tests/support/jest-dom-setup.ts'],
};

/**
 * Pure unit tests (no servers): components and browser-side code, in jsdom plus Node's fetch family
 * (see the environment file).
 */
const dom = createJestConfig({
  ...shared,
  ...unitEnvironment,
  displayName: 'unit',
  testMatch: ['<rootDir>/tests/unit/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: [
    ...shared.testPathIgnorePatterns,
    ...SLOW_UNIT_TESTS.map((file) => `<rootDir>/${file.replaceAll('.', '\\.')}$`),
  ],
});
const slowUnit = createJestConfig({
  ...shared,
  ...unitEnvironment,
  displayName: 'unit-slow',
  testMatch: SLOW_UNIT_TESTS.map((file) => `<rootDir>/${file}`),
});

/**
 * Tests against real servers (emulator, recording servers, static host) over real HTTP and sockets: plain
 * Node by default; a file that also needs a DOM (React hooks) names jsdom in its docblock.
 */
const node = createJestConfig({
  ...shared,
  displayName: 'integration',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/integration/**/*.test.{ts,tsx}'],
});

/**
 * Our client and the unmodified reference client side by side against one recording server. The
 * reference and two of its dependencies ship native ESM only, so Jest transpiles them here. Browser
 * rows pick jsdom per file.
 */
const conformance = createJestConfig({
  ...shared,
  displayName: 'conformance',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/conformance/**/*.test.ts'],
});
/**
 * The vendor's own local backend (`base44 dev`, offline) and our emulator side by side on one
 * project: real servers and a Deno function runtime on each side.
 */
const differential = createJestConfig({
  ...shared,
  displayName: 'differential',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/differential/**/*.test.ts'],
});
const conformanceEsmPackages = ['@base44/sdk', 'uuid', 'partysocket'];
/** GitHub's heading slugs (tests/unit/docs/, the docs' links) ship ESM only. */
const unitEsmPackages = ['github-slugger'];
/**
 * Netlify's own `_headers` parser (tests/integration/deploy/netlify-headers.test.ts) and the HTML
 * parser of `check:host` (parse5, with its entities) ship ESM only.
 */
const integrationEsmPackages = ['@netlify/headers-parser', 'escape-string-regexp', 'smol-toml', 'parse5', 'entities'];

/** Files whose functions the early inline script carries as source text (lib/site/early-document.ts). */
const EARLY_SCRIPT_SOURCES = [
  'lib/site/early-document.ts',
  'lib/site/exported-paths.ts',
  'lib/site/missing-page.ts',
  'lib/frame/frame-guard.ts',
];

/** Set a few points under what the suite reaches, so a change that drops tests shows. */
const COVERAGE_FLOORS = {
  // Reached on 2026-11-23: sdk 89 / 81 / 92 / 93 %, frame 92 / 82 / 92 / 94 %.
  './lib/sdk/': { statements: 85, branches: 76, functions: 88, lines: 88 },
  './lib/frame/': { statements: 87, branches: 77, functions: 88, lines: 90 },
};

export default async function config() {
  const [unitProject, slowUnitProject, integrationProject, conformanceProject, differentialProject] = await Promise.all(
    [dom(), slowUnit(), node(), conformance(), differential()],
  );
  for (const project of [unitProject, slowUnitProject])
    project.transformIgnorePatterns = [`/node_modules/(?!(${unitEsmPackages.join('|')})/)`];
  integrationProject.transformIgnorePatterns = [`/node_modules/(?!(${integrationEsmPackages.join('|')})/)`];
  conformanceProject.transformIgnorePatterns = [`/node_modules/(?!(${conformanceEsmPackages.join('|')})/)`];
  const projects = [unitProject, slowUnitProject, integrationProject, conformanceProject, differentialProject];
  return {
    projects,
    // Twice a single wait's limit (tests/support/waits.ts): set for a loaded machine, it only
    // ends a test that is already failing.
    testTimeout: 60_000,
    // `npm test` runs Jest with --coverage: the platform client and the editor bridge are the code
    // that talks to other systems, so their coverage may not fall below these floors.
    // The early script's functions are inlined into every page by their own source text
    // (lib/site/early-document.ts); instrumented, that text would call coverage counters that do not
    // exist where it runs, so they stay uninstrumented (their tests run that very text).
    collectCoverageFrom: ['lib/**/*.{ts,tsx}', '!lib/**/*.d.ts', ...EARLY_SCRIPT_SOURCES.map((file) => `!${file}`)],
    coverageDirectory: 'coverage',
    coverageReporters: ['text-summary', 'json-summary'],
    coverageThreshold: COVERAGE_FLOORS,
  };
}
