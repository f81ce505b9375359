/**
 * What protects the site where the host sends no header of ours (support/hosts): the policy each
 * page carries in `<meta>` (build-steps/export/early-head.ts), and the framing guard that stands in for
 * `frame-ancestors`, which no `<meta>` can carry (lib/frame/frame-guard.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from '@playwright/test';

import { parseHeadersFile } from '../../../deploy/headers/formats';
import { inlineScriptHashes, inlineStyleHashes } from '../../../deploy/headers/inline-scripts';
import { AUTH_MARKS } from '../../../lib/auth/auth-flow';
import { EDITOR_PORT } from '../../../support/editor-preview';
import { startEditorFixture, type EditorFixture } from '../fixtures/editor/server';
import { readReachedControls, recordReachedControls } from '../fixtures/reached-controls';
import { expect, test } from './fixtures';
import { expectCopy } from './flows';

const ROOT = path.resolve(__dirname, '../../..');

/** A policy as directive name -> sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function metaPolicyOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"\/>/.exec(html);
  return (match?.[1] ?? '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

for (const outDir of ['out', 'out-preview']) {
  test(`${outDir}: every page carries the header's policy as <meta>, but frame-ancestors, before any script or style`, () => {
    const root = path.join(ROOT, outDir);
    const rules = parseHeadersFile(readFileSync(path.join(root, '_headers'), 'utf8'));
    const header = directives(rules.find((rule) => rule.path === '/*')?.headers['Content-Security-Policy'] ?? '');
    expect(header.get('frame-ancestors')?.[0]).toBe("'self'");
    header.delete('frame-ancestors');
    const pages = readdirSync(root).filter((file) => file.endsWith('.html'));
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'ComingSoon.html', '404.html']));
    for (const file of pages) {
      const html = readFileSync(path.join(root, file), 'utf8');
      const meta = directives(metaPolicyOf(html));
      expect(meta, file).toEqual(header);
      const metaAt = html.indexOf('<meta http-equiv="Content-Security-Policy"');
      expect(metaAt).toBeGreaterThan(0);
      for (const tag of ['<script', '<style', '<link rel="stylesheet"']) {
        const at = html.indexOf(tag);
        if (at >= 0) expect(metaAt, `${file}: ${tag}`).toBeLessThan(at);
      }
      expect(html.indexOf('<script')).toBeGreaterThan(0);
      expect(html.indexOf('<meta name="referrer" content="strict-origin"/>')).toBeLessThan(html.indexOf('<script'));
      // The page as the browser hashes it (meta in place) is what the policy allows.
      for (const hash of inlineScriptHashes(html)) expect(meta.get('script-src'), file).toContain(hash);
      if (outDir === 'out') for (const hash of inlineStyleHashes(html)) expect(meta.get('style-src')).toContain(hash);
    }
  });
}

test.describe('the policy in <meta> on hosts without headers', () => {
  test('the pages run under it: hydrated, styled, no violation and no console error', async ({
    page,
    hosts,
    consoleErrors,
  }) => {
    for (const host of [hosts.spaOnly, hosts.notFoundOnly]) {
      const response = await page.request.get(`${host.url}/`);
      expect(response.headers()['content-security-policy']).toBeUndefined();
      await expectCopy(page, host.url, '/');
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    }
    expect(consoleErrors).toEqual([]);
  });

  test.describe('against an injected inline script', () => {
    test.use({ allowCspViolations: true });

    test('it is blocked and reported', async ({ page, hosts, consoleErrors }) => {
      for (const host of [hosts.spaOnly, hosts.notFoundOnly]) {
        await expectCopy(page, host.url, '/ComingSoon.html');
        const ran = await page.evaluate(async () => {
          const script = document.createElement('script');
          script.textContent = 'window.__injected = true;';
          document.body.append(script);
          await new Promise((resolve) => requestAnimationFrame(resolve));
          return (window as unknown as { __injected?: boolean }).__injected === true;
        });
        expect(ran, host.name).toBe(false);
        await expect
          .poll(
            () => consoleErrors.filter((text) => /^CSP violation: script-src-elem blocked inline/.test(text)).length,
          )
          .toBe(host === hosts.spaOnly ? 1 : 2);
      }
    });
  });
});

/** The framed site's frame, once attached. */
async function siteFrameOf(page: Page, site: string): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = page.frames().find((candidate) => candidate.url().startsWith(site));
      return frame !== undefined;
    })
    .toBe(true);
  return frame as Frame;
}

/** In the page: whether a pointer at the element's centre hits it (nothing laid over it). */
function pointerLandsOn(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && element.contains(hit);
}

/**
 * Clicks Go Home with the real mouse where the link is drawn; returns the controls (links, buttons)
 * the click reached in the frame.
 */
async function clickGoHome(page: Page, frame: Frame, { hydrated = false } = {}): Promise<string[]> {
  const link = frame.locator('a', { hasText: 'Go Home' });
  await expect(link).toBeVisible();
  // Where the click must act, wait until React owns the link: a click before hydration follows the
  // plain href, a full page load that also drops the listener below (a flaky race under load).
  if (hydrated) {
    await expect
      .poll(() => link.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))))
      .toBe(true);
    // Then until the auth gate has the platform's answer: until then its loading screen covers the
    // page whenever the answer takes longer than SPINNER_DELAY_MS (a busy machine loads the shell's
    // chunk late), and the click lands on the spinner (seen in CI: the click reached no control).
    await expect
      .poll(() => frame.evaluate((mark) => performance.getEntriesByName(mark).length > 0, AUTH_MARKS.resolved))
      .toBe(true);
    // A real pointer goes to whatever is on top at the spot: wait until that is the link itself.
    // (Not where the guard makes the document inert: nothing there takes a pointer, by design.)
    await expect.poll(() => link.evaluate(pointerLandsOn)).toBe(true);
  }
  await frame.evaluate(recordReachedControls);
  const box = await link.boundingBox();
  if (!box) throw new Error('Go Home has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  return frame.evaluate(readReachedControls);
}

test.describe('the framing guard on a host that sends no frame-ancestors', () => {
  let editor: EditorFixture;
  test.beforeAll(async () => {
    editor = await startEditorFixture(EDITOR_PORT);
  });
  test.afterAll(async () => {
    await editor.close();
  });

  test('a site off the editor allowlist frames it: readable, but no control acts for the visitor', async ({
    page,
    hosts,
  }) => {
    const hostile = await startEditorFixture(0);
    try {
      const site = hosts.spaOnlyPreview.url;
      await page.goto(hostile.urlFor(`${site}/404.html`));
      const frame = await siteFrameOf(page, site);
      await expect(frame.locator('h1')).toHaveText('Page Not Found');
      expect(await clickGoHome(page, frame)).toEqual([]);
      await page.waitForLoadState('networkidle');
      expect(new URL(frame.url()).pathname).toBe('/404.html');
      await expect(frame.locator('html')).toHaveAttribute('data-frame-guard', 'hostile');
      expect(await frame.evaluate(() => document.documentElement.inert)).toBe(true);
    } finally {
      await hostile.close();
    }
  });

  test('the allowlisted editor frames it: the same control works', async ({ page, hosts }) => {
    const site = hosts.spaOnlyPreview.url;
    await page.goto(editor.urlFor(`${site}/404.html`));
    const frame = await siteFrameOf(page, site);
    await expect(frame.locator('h1')).toHaveText('Page Not Found');
    await expect(frame.locator('html')).not.toHaveAttribute('data-frame-guard');
    expect(await clickGoHome(page, frame, { hydrated: true })).toEqual(['Go Home']);
    await expect.poll(() => new URL(frame.url()).pathname).toBe('/');
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Unsere neue Website ist fast startklar');
  });
});
