/**
 * Talking to the stand-in editor page (tests/e2e/fixtures/editor) from a test.
 */
import { expect, type Frame, type Page } from '@playwright/test';

import { PREVIEW_ORIGIN } from '../../../support/editor-preview';

/** A message the editor page received: where from, and whether it came from the framed site. */
export interface Received {
  origin: string;
  fromFrame: boolean;
  data: { type?: string; [field: string]: unknown };
}

/** Strings that only the bridge and agent code contain: finding one means that code was loaded. */
export const BRIDGE_MARKERS = ['visual-edit-agent-ready', 'element-position-update', 'tailwindcss-browser.js'];

export function received(page: Page): Promise<Received[]> {
  return page.evaluate(() => (window as unknown as { __messages: Received[] }).__messages.slice());
}

/** Posts messages into the framed site from the editor page, as the editor would. */
export async function send(page: Page, messages: unknown): Promise<void> {
  await page.evaluate((list) => (window as unknown as { __send: (items: unknown) => number }).__send(list), messages);
}

/** The first message of `type` from the frame at or after index `since`; waits for it. */
export async function waitForMessage(page: Page, type: string, since = 0): Promise<Received['data']> {
  let found: Received['data'] | undefined;
  await expect
    .poll(
      async () => {
        found = (await received(page))
          .slice(since)
          .find((message) => message.fromFrame && message.data?.type === type)?.data;
        return found !== undefined;
      },
      { message: `waiting for "${type}" from the site`, timeout: 10_000 },
    )
    .toBe(true);
  return found as Received['data'];
}

/** How many messages have arrived so far (to wait for the next one with `since`). */
export async function messageCount(page: Page): Promise<number> {
  return (await received(page)).length;
}

/** The framed site, once it is attached. */
export async function siteFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = page.frames().find((candidate) => candidate.url().startsWith(PREVIEW_ORIGIN));
      return frame !== undefined;
    })
    .toBe(true);
  return frame as Frame;
}

/** Collects the source of every script the page and its frames download. */
export function recordScripts(page: Page): { url: string; body: string }[] {
  const scripts: { url: string; body: string }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      scripts.push({ url: response.url(), body: await response.text() });
    } catch {
      scripts.push({ url: response.url(), body: '' });
    }
  });
  return scripts;
}

export function containsBridgeCode(source: string): boolean {
  return BRIDGE_MARKERS.some((marker) => source.includes(marker));
}
