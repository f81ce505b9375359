import nextJest from 'next/jest.js';

// next/jest gives every project Next's SWC transform and tsconfig paths. ofetch ships ESM only, so it
// has to be transpiled like our own code.
const createJestConfig = nextJest({ dir: './' });

const shared = {
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/out/', '/tests/e2e/'],
};
const esmPackages = ['ofetch', 'destr', 'ufo', 'node-fetch-native'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join('|')})/)`];

/** Components and browser-side code: jsdom plus Node's fetch family (see the environment file). */
const dom = createJestConfig({
  ...shared,
  displayName: 'dom',
  testEnvironment: '<rootDir>/tests/support/jsdom-with-node-fetch.cjs',
  testMatch: ['<rootDir>/tests/unit/**/*.test.{ts,tsx}'],
  setupFilesAfterEnv: ['<rootDir>/tests/support/jest-dom-setup.ts'],
});

/** SDK, emulator and real-time: plain Node talking to a real emulator over real HTTP and sockets. */
const node = createJestConfig({
  ...shared,
  displayName: 'node',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
});

/**
 * Our client and the unmodified reference client (`@base44/sdk`, native ESM, transpiled here like
 * ofetch) side by side against one recording server. Browser rows pick jsdom per file.
 */
const conformance = createJestConfig({
  ...shared,
  displayName: 'conformance',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/conformance/**/*.test.ts'],
});
const conformanceEsmPackages = [...esmPackages, '@base44/sdk', 'uuid', 'partysocket'];

export default async function config() {
  const projects = await Promise.all([dom(), node(), conformance()]);
  for (const project of projects) project.transformIgnorePatterns = transformIgnorePatterns;
  projects[2].transformIgnorePatterns = [`/node_modules/(?!(${conformanceEsmPackages.join('|')})/)`];
  return { projects, testTimeout: 20_000 };
}
