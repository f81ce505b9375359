import { configure } from '@testing-library/react';

import { WAIT_LIMIT_MS } from '@/tests/support/waits';

/**
 * The hooks here talk to a real emulator over HTTP and sockets, and `npm test` runs Jest beside the
 * browser suites: testing-library's default of 1 s for `waitFor` ended a socket connect still under
 * way (CI, beside a CPU hog). The timeout only ends a test that is already failing, so it is set for
 * a loaded machine (tests/support/waits.ts).
 */
configure({ asyncUtilTimeout: WAIT_LIMIT_MS });
