/** `npm run icons`: redraws app/icon.png from public/icon.svg (see support/icon-raster.ts for why a PNG). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from '../../support/browser';
import { ICON_PNG, ICON_SIZE, rasterizeIcon } from '../../support/icon-raster';
import { runCli } from '../cli';

runCli(async () => {
  const browser = await chromium.launch({
    executablePath: resolveBrowser().executablePath,
    args: PLAYWRIGHT_CHROMIUM_FLAGS,
  });
  try {
    const png = await rasterizeIcon(await browser.newPage());
    writeFileSync(ICON_PNG, png);
    console.log(`${path.relative(process.cwd(), ICON_PNG)}: ${ICON_SIZE}×${ICON_SIZE}, ${png.length} bytes`);
  } finally {
    await browser.close();
  }
});
