/**
 * What the conformance suite looks at after each step: the messages the framed agent posted to the
 * editor (field by field, with their exact key sets) and the page's state (attributes, text and
 * computed styles of every annotated element of the page's content (`<main>`; the shell around it
 * is rendered by React, which the reference page does not run), root custom properties, injected font styles,
 * suppressed pop-ups). The agents' own overlay nodes are left out: drawing them is each agent's
 * business (docs/EDITOR-DEVIATIONS.md, D7).
 */
import type { Frame, Page } from '@playwright/test';

export interface PostedMessage {
  type: string;
  keys: string[];
  data: Record<string, unknown>;
}

/** Messages the framed site posted to the editor page, from index `since` on. */
export async function postedSince(page: Page, since: number): Promise<PostedMessage[]> {
  return page.evaluate((start) => {
    const all = (window as unknown as { __messages: { fromFrame: boolean; data: Record<string, unknown> }[] })
      .__messages;
    return all
      .slice(start)
      .filter((message) => message.fromFrame && message.data !== null && typeof message.data === 'object')
      .map((message) => ({
        type: String(message.data.type),
        keys: Object.keys(message.data).sort(),
        data: message.data,
      }));
  }, since);
}

export function messageTotal(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __messages: unknown[] }).__messages.length);
}

export interface ElementState {
  id: string;
  tag: string;
  attributes: Record<string, string>;
  children: string[];
  computed: Record<string, string>;
}

export interface PageState {
  elements: ElementState[];
  rootStyle: string;
  rootProperties: Record<string, string>;
  fontStyles: string[];
  suppressed: string[];
}

/** Attributes either agent may set on page elements; `style` only as far as the page shows it. */
const WATCHED_ATTRIBUTES = [
  'class',
  'contenteditable',
  'data-selected',
  'src',
  'style',
  'data-base44-suppressed-popup',
];
const COMPUTED = ['font-size', 'color', 'min-height', 'display', 'cursor', 'text-decoration-line'];
const ROOT_PROPERTIES = ['--base44-reference-vh-base', '--color-stone-900', '--editor-test', '--editor-font-preview'];

export function pageState(frame: Frame): Promise<PageState> {
  return frame.evaluate(
    ({ watched, computed, rootProperties }) => {
      const describeChild = (node: ChildNode) =>
        node.nodeType === 3 ? `#text:${node.nodeValue ?? ''}` : node.nodeName;
      const elements = Array.from(
        document.querySelectorAll('main[data-source-location], main [data-source-location]'),
      ).map((element) => {
        const attributes: Record<string, string> = {};
        for (const name of watched) {
          const value = element.getAttribute(name);
          if (value !== null && value !== '') attributes[name] = value;
        }
        const style = getComputedStyle(element);
        return {
          id: element.getAttribute('data-source-location') ?? '',
          tag: element.tagName,
          attributes,
          children: Array.from(element.childNodes)
            .filter((node) => node.nodeType !== 8)
            .map(describeChild),
          computed: Object.fromEntries(computed.map((name) => [name, style.getPropertyValue(name)])),
        };
      });
      const rootComputed = getComputedStyle(document.documentElement);
      return {
        elements,
        rootStyle: document.documentElement.getAttribute('style') ?? '',
        rootProperties: Object.fromEntries(
          rootProperties.map((name) => [name, rootComputed.getPropertyValue(name).trim()]),
        ),
        fontStyles: Array.from(
          document.querySelectorAll('style[id^="visual-edit-font-face-"], style#__theme-font-preview'),
        ).map((style) => `${style.id}:${style.id === '__theme-font-preview' ? 'import' : style.textContent}`),
        suppressed: Array.from(document.querySelectorAll('[data-base44-suppressed-popup]')).map(
          (element) => element.id,
        ),
      };
    },
    { watched: WATCHED_ATTRIBUTES, computed: COMPUTED, rootProperties: ROOT_PROPERTIES },
  );
}
