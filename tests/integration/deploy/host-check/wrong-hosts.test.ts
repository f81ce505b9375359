/**
 * Each false verdict issue 36 found in `npm run check:host`: a host built to be wrong in one way,
 * where a browser (or a crawler) meets the protection gone, must make the command exit 1 and mark
 * that row LOST. Everything else the host does right: it is our static host serving the small
 * export (tests/support/small-export.ts). Only the command itself is run, as a user runs it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';

import {
  closeSites,
  dropMetaPolicies,
  listen,
  pathOf,
  rewrite,
  rewritePages,
  runCli,
  searchOf,
  serve,
  setHeaderPolicy,
  smallExport,
  verdictRow,
  type CliRun,
  type Intercept,
} from './sites';

afterAll(closeSites);

const TIMEOUT = 60_000;

/** The addresses the small export has; any other path names no page. */
const KNOWN = /^\/(index(\.html)?|ComingSoon(\/|\.html)?|_next\/.*)?$/;

async function expectLost(url: string, label: string): Promise<CliRun> {
  const cli = await runCli(url);
  expect({ status: cli.status, stderr: cli.stderr }).toEqual({ status: 1, stderr: '' });
  expect(verdictRow(cli.stdout, label)).toMatch(new RegExp(`^${label} +LOST `));
  return cli;
}

/** Answers every address that names no page with `answer`; the static host answers the rest. */
function atUnknownPaths(answer: (response: ServerResponse) => void): Intercept {
  return (request, response) => {
    if (KNOWN.test(pathOf(request))) return false;
    answer(response);
    return true;
  };
}

/** Answers every address that names no page with `html` and status 200, as SPA-only hosts do. */
function spaFallback(html: string): Intercept {
  return atUnknownPaths((response) =>
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html),
  );
}

/** The strict policy of the small export with one directive changed. */
const STRICT_BUT = (directive: string) =>
  `default-src 'self'; ${directive}; object-src 'none'; base-uri 'self'; frame-ancestors 'self' https://editor.example`;

describe('the 404 screen and search engines', () => {
  it(
    'every address answered with an index.html that has no 404 screen',
    async () => {
      const shell = '<!DOCTYPE html><html><head><title>Home</title></head><body><h1>Home</h1></body></html>';
      const cli = await expectLost(await serve(smallExport(), spaFallback(shell)), 'Unknown path shows 404 screen');
      expect(verdictRow(cli.stdout, 'Unknown path shows 404 screen')).toContain('200 "Home" without the 404 screen');
    },
    TIMEOUT,
  );

  it(
    'an address that names no page answered 200 without noindex',
    async () => {
      const dir = smallExport();
      const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
      const cli = await expectLost(await serve(dir, spaFallback(index)), 'Unknown path not indexed');
      // The page's early script still shows the 404 screen there: that row is kept.
      expect(verdictRow(cli.stdout, 'Unknown path shows 404 screen')).toMatch(/ kept +200: a page, whose early script/);
    },
    TIMEOUT,
  );

  it(
    'an address that names no page redirected to the home page',
    async () => {
      const home = atUnknownPaths((response) => response.writeHead(302, { Location: '/' }).end());
      const cli = await expectLost(await serve(smallExport(), home), 'Unknown path shows 404 screen');
      expect(cli.stdout).toMatch(/-no-such-page -> \/: a page's address, so no 404 screen/);
    },
    TIMEOUT,
  );

  it(
    'a 404 with an empty body (what a visitor sees is a blank page)',
    async () => {
      const empty = atUnknownPaths((response) => response.writeHead(404).end());
      const cli = await expectLost(await serve(smallExport(), empty), 'Unknown path shows 404 screen');
      expect(cli.stdout).toContain('404 with an empty body, not the 404 screen');
    },
    TIMEOUT,
  );
});

describe('the pages themselves', () => {
  it(
    '/ComingSoon missing (the check used never to ask for it)',
    async () => {
      const dir = smallExport((folder) => rmSync(path.join(folder, 'ComingSoon.html')));
      const cli = await expectLost(await serve(dir), 'Pages of the build');
      expect(verdictRow(cli.stdout, 'Pages of the build')).toContain("/ComingSoon: 404 (the site's 404 page)");
    },
    TIMEOUT,
  );

  it(
    '/ComingSoon answered with a directory listing after a redirect to /ComingSoon/',
    async () => {
      const listing: Intercept = (request, response) => {
        const search = searchOf(request);
        if (pathOf(request) === '/ComingSoon') response.writeHead(301, { Location: `/ComingSoon/${search}` }).end();
        else if (pathOf(request) === '/ComingSoon/') {
          response
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end('<html><head><title>Index of /ComingSoon</title></head><body><a href="a.txt">a.txt</a></body></html>');
        } else return false;
        return true;
      };
      const cli = await expectLost(await serve(smallExport(), listing), 'Pages of the build');
      expect(cli.stdout).toContain('/ComingSoon: 200 "Index of /ComingSoon", not a page of the site');
    },
    TIMEOUT,
  );
});

describe('caching and the build deployed', () => {
  it(
    'HTML cached immutable for a year',
    async () => {
      const dir = smallExport((folder) =>
        rewrite(folder, '_headers', (text) =>
          text.replace(/Cache-Control: no-cache/g, 'Cache-Control: public, max-age=31536000, immutable'),
        ),
      );
      const cli = await expectLost(await serve(dir), 'Caching of HTML');
      expect(verdictRow(cli.stdout, 'Caching of HTML')).toContain('/: public, max-age=31536000, immutable');
    },
    TIMEOUT,
  );

  /** Answers a missing file under /_next/static itself, cached for a year as that folder's files are. */
  const missingHashedFile =
    (type: string, body: string): Intercept =>
    (request, response) => {
      const pathname = pathOf(request);
      if (!pathname.startsWith('/_next/static/') || pathname === '/_next/static/chunks/app-1.js') return false;
      response.writeHead(404, { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' });
      response.end(body);
      return true;
    };

  it(
    "a missing hashed file answered with the 404 page cached immutable (a path rule, as Firebase's)",
    async () => {
      const dir = smallExport();
      const notFound = readFileSync(path.join(dir, '404.html'), 'utf8');
      const cli = await expectLost(await serve(dir, missingHashedFile('text/html', notFound)), 'Caching of HTML');
      expect(verdictRow(cli.stdout, 'Caching of HTML')).toMatch(
        /\/_next\/static\/chunks\/check-host-\w+-no-such-file\.js: public, max-age=31536000, immutable/,
      );
    },
    TIMEOUT,
  );

  it(
    'a missing hashed file answered with a plain-text 404 cached immutable is no HTML',
    async () => {
      const url = await serve(smallExport(), missingHashedFile('text/plain', 'Not Found'));
      const cli = await runCli(url);
      expect({ status: cli.status, stderr: cli.stderr }).toEqual({ status: 0, stderr: '' });
      expect(verdictRow(cli.stdout, 'Caching of HTML')).toMatch(/^Caching of HTML +kept /);
    },
    TIMEOUT,
  );

  it(
    'a local build deployed (/LOCAL-BUILD.txt answers 200)',
    async () => {
      const dir = smallExport((folder) =>
        writeFileSync(
          path.join(folder, 'LOCAL-BUILD.txt'),
          'LOCAL BUILD: out/ talks to the local platform emulator.\n',
        ),
      );
      await expectLost(await serve(dir), 'Not a local build');
    },
    TIMEOUT,
  );
});

describe('redirects', () => {
  it(
    'a redirect that carries ?access_token= to another origin, which is never asked',
    async () => {
      let asked = 0;
      const elsewhere = await listen(createServer((_request, response) => (asked += 1) && response.end('x')));
      const leak: Intercept = (request, response) => {
        if (pathOf(request) !== '/index.html') return false;
        response.writeHead(302, { Location: `${elsewhere}/${searchOf(request)}` }).end();
        return true;
      };
      const cli = await expectLost(await serve(smallExport(), leak), 'Token stays on the site');
      expect(cli.stdout).toContain(`(the token goes to ${elsewhere})`);
      expect(asked).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'a redirect loop on /index.html?query is a loop, not "query kept"',
    async () => {
      const loop: Intercept = (request, response) => {
        if (pathOf(request) !== '/index.html') return false;
        response.writeHead(301, { Location: `/index.html${searchOf(request)}` }).end();
        return true;
      };
      const cli = await expectLost(await serve(smallExport(), loop), 'Redirects end');
      expect(verdictRow(cli.stdout, 'Redirects end')).toContain('redirect loop: /index.html?access_token=');
    },
    TIMEOUT,
  );
});

describe('Content-Security-Policy as a browser enforces it', () => {
  it(
    'a strict policy only inside an HTML comment, the real header weak',
    async () => {
      const dir = smallExport((folder) => {
        setHeaderPolicy(folder, STRICT_BUT("script-src 'self' 'unsafe-inline'"));
        rewritePages(folder, (html) =>
          html.replace(/(<meta http-equiv="Content-Security-Policy"[^>]*>)/, '<!-- $1 -->'),
        );
      });
      const cli = await expectLost(await serve(dir), 'Content-Security-Policy');
      expect(verdictRow(cli.stdout, 'Content-Security-Policy')).toContain(
        "from the header, not strict: script-src allows 'unsafe-inline'",
      );
    },
    TIMEOUT,
  );

  it.each([
    ["script-src 'self' https:", 'script-src allows https:'],
    ["script-src 'self' data:", 'script-src allows data:'],
    ["script-src 'self' blob:", 'script-src allows blob:'],
    ["script-src 'self'; script-src-elem 'self' 'unsafe-inline'", "script-src-elem allows 'unsafe-inline'"],
    ["script-src 'self'; script-src-attr 'unsafe-inline'", "script-src-attr allows 'unsafe-inline'"],
  ])(
    '%s in the only policy',
    async (directive, why) => {
      const dir = smallExport((folder) => {
        setHeaderPolicy(folder, STRICT_BUT(directive));
        dropMetaPolicies(folder);
      });
      const cli = await expectLost(await serve(dir), 'Content-Security-Policy');
      expect(verdictRow(cli.stdout, 'Content-Security-Policy')).toContain(why);
    },
    TIMEOUT,
  );

  it(
    'frame-ancestors https: (any https site may frame the pages)',
    async () => {
      const dir = smallExport((folder) =>
        rewrite(folder, '_headers', (text) => text.replace(/frame-ancestors [^;\n]*/, 'frame-ancestors https:')),
      );
      const cli = await expectLost(await serve(dir), 'frame-ancestors');
      expect(verdictRow(cli.stdout, 'frame-ancestors')).toContain('frame-ancestors https: (any such site');
    },
    TIMEOUT,
  );
});
