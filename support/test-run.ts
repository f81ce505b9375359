/**
 * How this test run was started, read once for every Playwright configuration: on CI (`CI` set),
 * a test left as `.only` fails the run instead of silently skipping all the others.
 */
export const ON_CI = Boolean(process.env.CI);
