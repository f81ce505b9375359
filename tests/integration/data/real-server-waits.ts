import { configure } from '@testing-library/react';

/**
 * The hooks here talk to a real emulator over HTTP and sockets, and `npm test` runs Jest beside the
 * browser suites: testing-library's default of 1 s for `waitFor` ended a socket connect still under
 * way (CI, beside a CPU hog). The timeout only ends a test that is already failing, so it is set for
 * a loaded machine; Jest's own limit (20 s) stays the bound.
 */
configure({ asyncUtilTimeout: 10_000 });
