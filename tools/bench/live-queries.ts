/**
 * `npx tsx tools/bench/live-queries.ts [--quick]`: the live-query part of `npm run bench` alone.
 * Exits 1 when a watch ended unequal to a fresh filter(), was handed a result twice, or heard an error.
 */
import { formatLiveQueryBenchRows, runLiveQueryBench } from '../../support/live-query-load';
import { runCli } from '../cli';

runCli(async () => {
  const report = await runLiveQueryBench({ quick: process.argv.includes('--quick') });
  for (const [measure, value, notes] of formatLiveQueryBenchRows(report))
    console.log(`${measure}: ${value} (${notes})`);
  console.log(JSON.stringify(report));
  if (!report.correctness.correct) process.exitCode = 1;
});
