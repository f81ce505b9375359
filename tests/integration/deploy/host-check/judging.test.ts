/**
 * How `check:host` reads a page and judges its policies, case by case, without a host: HTML read as
 * a browser builds the tree (parse5), Content-Security-Policy as a browser enforces it (each way a
 * script can come in, several policies together, CSP3's rules for what a hash, nonce or
 * 'strict-dynamic' switches off), who may frame a page, and what is printed of host text.
 */
import { createHash } from 'node:crypto';

import { allowsInlineScript, headerPolicies, judgeFraming, openWays, type Policy } from '@/deploy/host-check/csp';
import { escapeForTerminal, safeJson } from '@/deploy/host-check/escape';
import { readPage } from '@/deploy/host-check/html';
import { SMALL_EXPORT_EARLY_SCRIPT } from '@/tests/support/small-export';

const STRICT = "default-src 'self'; script-src 'self'; object-src 'none'";
const meta = (policy: string) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
const page = (head: string, body = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe('which <meta> policies a browser enforces', () => {
  it.each([
    ['a child of <head> before any script', page(meta(STRICT)), [STRICT], []],
    ['inside a comment', page(`<!-- ${meta(STRICT)} -->`), [], []],
    ['inside <noscript> (scripting is on)', page(`<noscript>${meta(STRICT)}</noscript>`), [], []],
    ['inside a <template>', page(`<template>${meta(STRICT)}</template>`), [], []],
    [
      'inside an attribute value holding ">"',
      page(`<meta name="x" content="a > ${meta(STRICT).replace(/"/g, "'")}">`),
      [],
      [],
    ],
    [
      'after a script',
      page(`<script src="/a.js"></script>${meta(STRICT)}`),
      [],
      [{ policy: STRICT, reason: 'after a script' }],
    ],
    ['in <body>', page('', meta(STRICT)), [], [{ policy: STRICT, reason: 'outside <head>' }]],
    ['after text that ends <head>', page(`x${meta(STRICT)}`), [], [{ policy: STRICT, reason: 'outside <head>' }]],
    ['with an empty content', page(meta(' ')), [], []],
  ])('%s', (_case, html, enforced, ignored) => {
    const reading = readPage(html);
    expect(reading.metaPolicies).toEqual(enforced);
    expect(reading.ignoredPolicies).toEqual(ignored);
  });
});

describe('the parts of a page check:host reads', () => {
  const early = `<script>${SMALL_EXPORT_EARLY_SCRIPT}</script>`;
  const template = '<template data-missing-page=""><main>404</main></template>';

  it('recognises the early script and the 404 template before it', () => {
    const reading = readPage(page(`${template}<title> Bald \n da </title>${early}`));
    expect(reading.earlyScript).toEqual({
      pageNames: ['ComingSoon'],
      missingAttribute: 'data-missing-page',
      notFoundTitle: 'Seite nicht gefunden (404)',
    });
    expect([reading.missingTemplate, reading.title]).toEqual([true, 'Bald da']);
  });

  it('does not count a template after the early script (the script cannot see it yet), or an empty one', () => {
    expect(readPage(page(`${early}${template}`)).missingTemplate).toBe(false);
    expect(readPage(page(`<template data-missing-page=""></template>${early}`)).missingTemplate).toBe(false);
  });

  it('recognises no early script in look-alikes', () => {
    for (const text of ['(function(){})(window,{"pageNames":[]})', 'console.log(1)', '(function(){})(window,{"x":']) {
      expect(readPage(page(`<script>${text}</script>`)).earlyScript).toBeNull();
    }
    expect(readPage(page('', early)).earlyScript).toBeNull();
  });

  it('lists the inline scripts a browser runs, not data blocks or unknown types', () => {
    const scripts = [
      '<script>a()</script>',
      '<script type="module">b()</script>',
      '<script type="application/json">{}</script>',
      '<script type="text/javascript; charset=utf-8">c()</script>',
      '<script language="javascript">d()</script>',
      '<script src="/e.js"></script>',
    ];
    expect(readPage(page(scripts.join(''))).inlineScripts.map((script) => script.text)).toEqual(['a()', 'b()', 'd()']);
  });

  it('knows which referrer metas came before the first request', () => {
    const html = page(
      '<meta name="referrer" content="strict-origin"><link rel="stylesheet" href="/a.css"><meta name="Referrer" content="unsafe-url">',
    );
    expect(readPage(html).referrerMetas).toEqual([
      { value: 'strict-origin', beforeFirstRequest: true },
      { value: 'unsafe-url', beforeFirstRequest: false },
    ]);
  });
});

const header = (text: string): Policy => ({ text, from: 'header' });
const inMeta = (text: string): Policy => ({ text, from: '<meta>' });

describe('the ways in a set of policies leaves open', () => {
  it.each([
    ['a strict policy', [header(STRICT)], []],
    ["'unsafe-inline' beside a hash (ignored)", [header(`${STRICT}; script-src 'sha256-abc=' 'unsafe-inline'`)], []],
    ["'default-src 'none'", [header("default-src 'none'")], []],
    [
      "'strict-dynamic' with a nonce (hosts, schemes and 'unsafe-inline' ignored)",
      [header("script-src 'nonce-abcdefghij' 'strict-dynamic' https: 'unsafe-inline'; object-src 'none'")],
      [],
    ],
    [
      "'unsafe-inline' (script elements and event handlers)",
      [header("script-src 'self' 'unsafe-inline'; object-src 'none'")],
      ["script-src allows 'unsafe-inline'", "script-src allows 'unsafe-inline'"],
    ],
    ['https:', [header("script-src 'self' https:; object-src 'none'")], ['script-src allows https:']],
    ['data:', [header("script-src 'self' data:; object-src 'none'")], ['script-src allows data:']],
    ['blob:', [header("script-src 'self' blob:; object-src 'none'")], ['script-src allows blob:']],
    ['*', [header("script-src *; object-src 'none'")], ['script-src allows *']],
    ['https://*', [header("script-src https://*; object-src 'none'")], ['script-src allows https://*']],
    [
      'a host known to serve JSONP',
      [header("script-src 'self' https://ajax.googleapis.com; object-src 'none'")],
      ['script-src allows https://ajax.googleapis.com, which serves JSONP or AngularJS'],
    ],
    [
      'a permissive script-src-elem',
      [header("script-src 'self'; script-src-elem 'self' 'unsafe-inline'; object-src 'none'")],
      ["script-src-elem allows 'unsafe-inline'"],
    ],
    [
      'a permissive script-src-attr',
      [header("script-src 'self'; script-src-attr 'unsafe-inline'; object-src 'none'")],
      ["script-src-attr allows 'unsafe-inline'"],
    ],
    [
      "'unsafe-eval'",
      [header("script-src 'self' 'unsafe-eval'; object-src 'none'")],
      ["script-src allows 'unsafe-eval'"],
    ],
    ['no object-src', [header("default-src 'self'")], ["default-src is not 'none'"]],
    [
      'no script directive at all',
      [header("object-src 'none'")],
      ['no script-src or default-src', 'no script-src or default-src', 'no script-src or default-src'],
    ],
    ['no policy', [], ['no policy']],
    ['a weak header under a strict <meta>', [header('script-src *'), inMeta(STRICT)], []],
    [
      'weak in different ways (each way closed by one)',
      [
        header("script-src-elem 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'"),
        inMeta("script-src 'self' https:"),
      ],
      [],
    ],
    [
      'weak in the same way in both',
      [header("script-src *; object-src 'none'"), inMeta('script-src https:')],
      ['script-src allows *'],
    ],
  ])('%s', (_case, policies, reasons) => {
    expect(openWays(policies).map((way) => way.why)).toEqual(reasons);
  });

  it('reads a header with several policies as a browser does (a comma separates them)', () => {
    const policies = headerPolicies("script-src *, script-src 'self'; object-src 'none', ;").map(header);
    expect(policies.map((policy) => policy.text)).toEqual(['script-src *', "script-src 'self'; object-src 'none'"]);
    expect(openWays(policies)).toEqual([]);
  });
});

describe('whether a policy lets a page run its own inline script', () => {
  const text = 'console.log("früh")';
  const hash = createHash('sha256').update(text, 'utf8').digest('base64');
  const script = { text, nonce: null };

  it.each([
    [`script-src 'sha256-${hash}'`, true],
    [`default-src 'self' 'sha256-${hash}'`, true],
    [`script-src 'sha256-${hash.replace(/\+/g, '-').replace(/\//g, '_')}'`, true],
    ["script-src 'sha256-AAAA'", false],
    ["script-src 'self'", false],
    ["script-src 'unsafe-inline'", true],
    ["script-src 'unsafe-inline' 'sha256-AAAA'", false],
    ["script-src 'unsafe-inline' 'strict-dynamic'", false],
    ["img-src 'self'", true],
    [`script-src 'self'; script-src-elem 'sha256-${hash}'`, true],
  ])('%s: %s', (policy, allowed) => {
    expect(allowsInlineScript(policy, script)).toBe(allowed);
  });

  it('by its nonce', () => {
    expect(allowsInlineScript("script-src 'nonce-abc123'", { text, nonce: 'abc123' })).toBe(true);
    expect(allowsInlineScript("script-src 'nonce-abc123'", { text, nonce: 'other' })).toBe(false);
  });
});

describe('who may frame a page', () => {
  it.each([
    ["frame-ancestors 'self' https://editor.example", null, [], true],
    ["frame-ancestors 'none'", null, [], true],
    ['frame-ancestors https://*.example.com', null, [], true],
    ['frame-ancestors https:', null, [], false],
    ['frame-ancestors *', null, [], false],
    ['frame-ancestors https://*', null, [], false],
    ["frame-ancestors *, frame-ancestors 'self'", null, [], true],
    [null, 'DENY', [], true],
    [null, 'sameorigin', [], true],
    [null, 'ALLOW-FROM https://a.example', [], false],
    [null, 'deny, allowall', [], true],
    ['frame-ancestors https:', 'DENY', [], false],
    ["default-src 'self'", null, ["frame-ancestors 'none'"], false],
  ])('%s / X-Frame-Options %s', (csp, xFrameOptions, metaPolicies, kept) => {
    expect(judgeFraming(csp, xFrameOptions, metaPolicies).kept).toBe(kept);
  });

  it('says why a <meta> frame-ancestors counts for nothing', () => {
    expect(judgeFraming(null, null, ["frame-ancestors 'none'"]).found).toBe(
      'not enforced (only in <meta>, where browsers ignore it)',
    );
  });
});

describe('host text as printed', () => {
  const hostile = 'a\rb\nc\td\x1b[2Je\x7ff\x9bg\u202eh\u2028i\\j\ud800k';

  it('shows every character a terminal would act on as an escape', () => {
    expect(escapeForTerminal(hostile)).toBe('a\\rb\\nc\\td\\x1b[2Je\\x7ff\\x9bg\\u202eh\\u2028i\\\\j\\ud800k');
    expect(escapeForTerminal('Bald verfügbar – „Seite“ 😀')).toBe('Bald verfügbar – „Seite“ 😀');
  });

  it('keeps JSON the same value, with nothing raw a terminal acts on', () => {
    const json = safeJson({ found: hostile });
    expect(json).not.toMatch(/[\r\t\x1b\x7f\x9b\u202e\u2028]/);
    expect(JSON.parse(json)).toEqual({ found: hostile });
  });
});
