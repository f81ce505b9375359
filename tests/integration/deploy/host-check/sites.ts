/**
 * Sites for the tests of `npm run check:host`: the small export (tests/support/small-export.ts) on
 * our static host (deploy/static-host), either as it is or built to be wrong in one way, by editing
 * the export's files (its `_headers`, its pages) before the host starts or by answering some
 * requests differently; and the command itself, run as a user runs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { headersForPath, parseHeadersFile } from '@/deploy/headers/formats';
import { createStaticServer } from '@/deploy/static-host/server';
import { writeSmallExport } from '@/tests/support/small-export';

const ROOT = path.resolve(__dirname, '../../../..');

const servers: Server[] = [];
const folders: string[] = [];

export async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops every server and removes every folder the tests of a file made (call in afterAll). */
export async function closeSites(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A copy of the small export, edited by `edit`. */
export function smallExport(edit: (dir: string) => void = () => undefined): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'host-check-'));
  folders.push(dir);
  writeSmallExport(dir);
  edit(dir);
  return dir;
}

/** Rewrites a file of the export. */
export function rewrite(dir: string, file: string, change: (text: string) => string): void {
  const target = path.join(dir, file);
  writeFileSync(target, change(readFileSync(target, 'utf8')));
}

/** Rewrites every page of the export. */
export function rewritePages(dir: string, change: (html: string) => string): void {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.html'))) rewrite(dir, file, change);
}

/** Replaces the Content-Security-Policy that `_headers` sends on every path. */
export function setHeaderPolicy(dir: string, policy: string): void {
  rewrite(dir, '_headers', (text) => text.replace(/Content-Security-Policy: .*/, `Content-Security-Policy: ${policy}`));
}

/** Takes the `<meta>` policy out of every page (as a host that rewrites HTML might). */
export function dropMetaPolicies(dir: string): void {
  rewritePages(dir, (html) => html.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*"\/>/, ''));
}

/** The headers the export's `_headers` gives `urlPath`, for an answer a test writes itself. */
export function siteHeaders(dir: string, urlPath: string): Record<string, string> {
  return headersForPath(parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8')), urlPath);
}

/** Answers some requests itself (returns true when it did); our static host answers the rest. */
export type Intercept = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The export at `dir` on our static host, with `intercept` answering first. */
export function serve(dir: string, intercept: Intercept = () => false): Promise<string> {
  const host = createStaticServer({ root: dir });
  return listen(
    createServer((request, response) => {
      if (!intercept(request, response)) host.emit('request', request, response);
    }),
  );
}

export function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://site').pathname;
}

/** The query of a request, with its `?` (or ''). */
export function searchOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://site').search;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run check:host -- <args>` as a user runs it (the same file through tsx's loader; `node
 * --import tsx` rather than tsx's CLI, which starts a second Node process around it: 0.3 s of CPU a
 * run, some 30 runs); asynchronously, since the sites it checks answer from this very process.
 */
export function runCli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/site/check-host.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The verdict column of a row of the printed table, by its label. */
export function verdictRow(stdout: string, label: string): string | undefined {
  return stdout.split('\n').find((line) => line.startsWith(`${label}  `));
}
