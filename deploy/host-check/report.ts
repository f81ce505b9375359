/** The table `npm run check:host` prints, and its exit code. */
import type { HostReport } from './checks';

/** 0: every promised protection is there; 1: some are missing (named on the last line). */
export function exitCodeOf(report: HostReport): number {
  return report.missing.length === 0 ? 0 : 1;
}

function verdictOf(result: HostReport['results'][number]): string {
  if (result.kept) return 'kept';
  return result.protection ? 'LOST' : 'differs';
}

export function formatReport(report: HostReport): string {
  const rows = report.results.map((result) => [result.label, verdictOf(result), result.found]);
  const header = ['check', 'verdict', 'what the site answered'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const summary =
    report.missing.length === 0
      ? 'Every protection README "Deploy" promises is in place.'
      : `Missing protections (README "Deploy" says which hosts keep them): ${report.missing.join(', ')}`;
  return [`check:host ${report.url}`, '', line(header), ...rows.map(line), '', summary].join('\n');
}
