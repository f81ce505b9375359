#!/usr/bin/env node
/**
 * `npx base44 ...`: runs the vendor's CLI (see vendor.mjs for why it is not a plain dependency).
 * The CLI runs in this process, unmodified, with the project's node_modules/.bin first on PATH so
 * that it finds the pinned `deno` for functions.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { ensureVendorCli, REPO_ROOT } from './vendor.mjs';

const bin = await ensureVendorCli({ log: (line) => console.error(line) });
const localBin = path.join(REPO_ROOT, 'node_modules', '.bin');
process.env.PATH = [localBin, process.env.PATH].filter(Boolean).join(path.delimiter);
await import(pathToFileURL(bin).href);
