/**
 * What `npm run check:host` prints: a table for people, or with `--json` one JSON document for
 * scripts and CI (its shape is in docs/DEPLOY.md, "Checking a deployed site"; `version` changes when it does), and
 * its exit code. Every text that came from the host is printed escaped (escape.ts).
 */
import type { CheckId, CheckResult, HostReport } from './checks';
import { escapeForTerminal, safeJson } from './escape';

export type Verdict = 'kept' | 'lost' | 'differs';

export interface JsonCheck {
  id: CheckId;
  label: string;
  protection: boolean;
  scope: 'host' | 'build';
  verdict: Verdict;
  found: string;
}

export interface JsonReport {
  version: 1;
  requested: string;
  url: string;
  /** True when every protection is kept (exit code 0). */
  passed: boolean;
  missing: CheckId[];
  checks: JsonCheck[];
  notes: string[];
}

/** What `--json` prints when the site cannot be checked at all (exit code 2). */
export interface JsonError {
  version: 1;
  error: string;
}

/** 0: every promised protection is there; 1: some are missing (named on the last line). */
export function exitCodeOf(report: HostReport): number {
  return report.missing.length === 0 ? 0 : 1;
}

function verdictOf(result: CheckResult): Verdict {
  if (result.kept) return 'kept';
  return result.protection ? 'lost' : 'differs';
}

export function jsonReport(report: HostReport): JsonReport {
  return {
    version: 1,
    requested: report.requested,
    url: report.url,
    passed: report.missing.length === 0,
    missing: report.missing,
    checks: report.results.map(({ id, label, protection, scope, found, ...result }) => ({
      id,
      label,
      protection,
      scope,
      verdict: verdictOf({ id, label, protection, scope, found, ...result }),
      found,
    })),
    notes: report.notes,
  };
}

export function formatJson(report: HostReport): string {
  return safeJson(jsonReport(report));
}

export function formatJsonError(message: string): string {
  return safeJson({ version: 1, error: message } satisfies JsonError);
}

export function formatReport(report: HostReport): string {
  const rows = report.results.map((result) => [
    result.label,
    verdictOf(result) === 'kept' ? 'kept' : verdictOf(result) === 'lost' ? 'LOST' : 'differs',
    escapeForTerminal(result.found),
  ]);
  const header = ['check', 'verdict', 'what the site answered'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const notes = report.notes.map((note) => `note: ${escapeForTerminal(note)}`);
  const summary =
    report.missing.length === 0
      ? 'Every protection docs/DEPLOY.md promises is in place.'
      : `Missing protections (docs/DEPLOY.md says which hosts keep them): ${report.missing.join(', ')}`;
  return [
    `check:host ${escapeForTerminal(report.url)}`,
    '',
    line(header),
    ...rows.map(line),
    ...(notes.length > 0 ? ['', ...notes] : []),
    '',
    summary,
  ].join('\n');
}
