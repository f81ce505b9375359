/** postinstall: unpack the pinned vendor CLI so `npx base44` works offline afterwards. */
import { ensureVendorCli } from './vendor.mjs';

try {
  await ensureVendorCli({ log: (line) => console.log(line) });
} catch (error) {
  // Everything but the Base44 CLI flows still works, so say what failed instead of failing the install.
  console.warn(`Warning: the Base44 CLI could not be installed: ${error instanceof Error ? error.message : error}`);
  console.warn('`npx base44` will try again on first use.');
}
