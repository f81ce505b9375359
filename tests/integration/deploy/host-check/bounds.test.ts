/**
 * What `npm run check:host` does with a host that sends too much, too slowly or bytes meant for the
 * terminal: it reads each answer within a size and a time limit (and says where it stopped), prints
 * every byte from the host escaped, and follows the address given to another origin only saying so.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

import { checkHost } from '@/deploy/host-check/checks';
import { HostCheckError } from '@/deploy/host-check/http';
import type { JsonReport } from '@/deploy/host-check/report';

import {
  closeSites,
  listen,
  pathOf,
  rewritePages,
  runCli,
  serve,
  siteHeaders,
  smallExport,
  type Intercept,
} from './sites';

afterAll(closeSites);

const TIMEOUT = 60_000;
const MiB = 1024 * 1024;

describe('bounded reads', () => {
  it(
    'reads the first 2 MiB of an endless body and closes the connection',
    async () => {
      const dir = smallExport();
      const index = readFileSync(path.join(dir, 'index.html'));
      // Endless as far as any reader goes; the stop at 64 MiB only keeps a broken reader from filling memory.
      const sent: number[] = [];
      const endless: Intercept = (request, response) => {
        if (pathOf(request) !== '/') return false;
        response.writeHead(200, { ...siteHeaders(dir, '/'), 'Content-Type': 'text/html; charset=utf-8' });
        response.write(index);
        const chunk = Buffer.alloc(64 * 1024, '<!-- more -->');
        let total = index.length;
        const pump = () => {
          while (total < 64 * MiB && !response.destroyed) {
            total += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        response.on('close', () => sent.push(total));
        pump();
        return true;
      };
      const cli = await runCli(await serve(dir, endless));
      // What the host managed to send before the check hung up: its limit plus what sockets buffer.
      expect(sent.length).toBeGreaterThan(0);
      for (const total of sent) expect(total).toBeLessThan(16 * MiB);
      expect(cli.status).toBe(0);
      expect(cli.stdout).toContain(`note: /: read only its first ${2 * MiB} bytes (the answer goes on)`);
    },
    TIMEOUT,
  );

  it(
    'reads a body that never ends for the time limit only',
    async () => {
      const dir = smallExport();
      const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
      const timers: NodeJS.Timeout[] = [];
      const dripping: Intercept = (request, response) => {
        if (pathOf(request) !== '/') return false;
        response.writeHead(200, { ...siteHeaders(dir, '/'), 'Content-Type': 'text/html; charset=utf-8' });
        response.write(index.replace('</body></html>', ''));
        const timer = setInterval(() => response.write(' '), 50);
        timers.push(timer);
        response.on('close', () => clearInterval(timer));
        return true;
      };
      const report = await checkHost(await serve(dir, dripping), { limits: { timeoutMs: 1000 } });
      expect(report.notes).toContain('/: read for 1 s only (the answer kept coming)');
      // The page was judged on what came: its head is complete.
      expect(report.missing).toEqual([]);
      timers.forEach(clearInterval);
    },
    TIMEOUT,
  );

  it(
    'gives up on a host that never answers, within the time limit',
    async () => {
      const url = await listen(createServer(() => undefined));
      await expect(checkHost(url, { limits: { timeoutMs: 500 } })).rejects.toThrow(
        new HostCheckError(`cannot reach ${url}: no answer within 0.5 s`),
      );
    },
    TIMEOUT,
  );
});

describe('what the host sends is printed escaped', () => {
  it(
    'a carriage return and an escape sequence in a <meta> cannot rewrite the table',
    async () => {
      const dir = smallExport((folder) =>
        rewritePages(folder, (html) =>
          html.replace(
            '<meta name="referrer" content="strict-origin"/>',
            '<meta name="referrer" content="strict-origin\x1b[2J&#13;LOST\u202e"/>',
          ),
        ),
      );
      const url = await serve(dir);
      const cli = await runCli(url);
      expect(cli.stdout).not.toMatch(/[\r\x1b\u202e]/);
      expect(cli.stdout).toContain('strict-origin (header); <meta> value ignored: strict-origin\\x1b[2J\\rLOST\\u202e');

      const json = await runCli('--json', url);
      expect(json.stdout).not.toMatch(/[\r\x1b\u202e]/);
      const found = (JSON.parse(json.stdout) as JsonReport).checks.find(
        (check) => check.id === 'referrer-policy',
      )?.found;
      expect(found).toBe('strict-origin (header); <meta> value ignored: strict-origin\x1b[2J\rLOST\u202e');
    },
    TIMEOUT,
  );
});

describe('the address given redirects to another origin', () => {
  it(
    'is followed to the site, and the report says so',
    async () => {
      const site = await serve(smallExport());
      const entry = await listen(
        createServer((_request, response) => response.writeHead(301, { Location: `${site}/` }).end()),
      );
      const report = await checkHost(`${entry}/`);
      expect(report.url).toBe(`${site}/`);
      expect(report.notes).toContain(
        `the address given redirects to another origin, which was checked: ${entry}/ -> ${site}/`,
      );
      expect(report.missing).toEqual([]);
    },
    TIMEOUT,
  );
});
