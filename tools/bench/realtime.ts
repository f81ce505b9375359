/**
 * `npx tsx tools/bench/realtime.ts [--clients 50] [--rate 200] [--seconds 10] [--records 20]`: real-time
 * delivery latency and completeness; exits 1 when an update is lost or out of order.
 */
import { formatRealtimeBenchReport, runRealtimeBench } from '../../support/realtime-load';
import { runCli } from '../cli';

function numberFlag(argv: readonly string[], flag: string): number | undefined {
  const index = argv.indexOf(flag);
  if (index === -1) return undefined;
  const value = Number(argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
  return value;
}

runCli(async () => {
  const argv = process.argv.slice(2);
  const seconds = numberFlag(argv, '--seconds');
  const report = await runRealtimeBench({
    clients: numberFlag(argv, '--clients'),
    writesPerSecond: numberFlag(argv, '--rate'),
    durationMs: seconds === undefined ? undefined : seconds * 1000,
    records: numberFlag(argv, '--records'),
  });
  console.log(formatRealtimeBenchReport(report));
  if (!report.complete || !report.ordered) process.exitCode = 1;
});
