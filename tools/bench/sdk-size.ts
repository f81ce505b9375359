/** `npx tsx tools/bench/sdk-size.ts`: the SDK bundle next to the reference client; exits 1 over the target. */
import { formatSdkSizeReport, measureSdkSizes } from '../../support/sdk-size';
import { runCli } from '../cli';

runCli(async () => {
  const report = await measureSdkSizes();
  console.log(formatSdkSizeReport(report));
  if (!report.meetsTarget) process.exitCode = 1;
});
