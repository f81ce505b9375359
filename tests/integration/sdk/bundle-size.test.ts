/**
 * Guards the size budget of the issue: the SDK's initial browser bundle (real-time excluded) stays at
 * most a fifth of the reference client's, and real-time really is split off into a lazy chunk.
 */
import { formatSdkSizeReport, measureSdkSizes, TARGET_RATIO, type SdkSizeReport } from '@/support/sdk-size';

let report: SdkSizeReport;
beforeAll(async () => {
  report = await measureSdkSizes();
}, 60_000);

it('keeps the initial SDK bundle within a fifth of @base44/sdk', () => {
  expect(report.ratio).toBeLessThanOrEqual(TARGET_RATIO);
  expect(report.meetsTarget).toBe(true);
});

it('loads socket.io-client only through the lazy real-time chunk', () => {
  // socket.io-client alone is well over 10 KB gzip; the initial bundle must not contain it.
  expect(report.ours.lazyGzipBytes).toBeGreaterThan(10_000);
  expect(report.ours.gzipBytes).toBeLessThan(report.ours.lazyGzipBytes);
  expect(report.reference.lazyGzipBytes).toBe(0);
});

it('prints both bundles and the verdict', () => {
  const table = formatSdkSizeReport(report);
  expect(table).toContain('lib/sdk createClient');
  expect(table).toContain('@base44/sdk createClient');
  expect(table).toMatch(/target <= 20%: meets/);
});
