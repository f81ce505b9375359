/**
 * Recognises the site's early script (lib/site/early-document.ts) in a page: the inline script
 * that, before the first paint, shows the 404 screen where a host served a page at an address that
 * names no page. The build minifies its functions, so it is recognised by what stays: a call
 * `(function …)(window,{settings},…)` whose settings are an EarlyDocumentConfig, which also tells
 * which pages the deployed build has and which attribute marks the 404 `<template>`.
 */
import type { EarlyDocumentConfig } from '../../lib/site/early-document';

export interface EarlyScript {
  /** The pages the deployed build exported (its registry at build time). */
  pageNames: string[];
  /** The attribute of the `<template>` that holds the static 404 screen. */
  missingAttribute: string;
  notFoundTitle: string;
}

const CALL = ')(window,{';

/** The end (exclusive) of the JSON object that starts at `start`, or -1 when it does not close. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The early script's settings when `text` is that script, else null. */
export function readEarlyScript(text: string): EarlyScript | null {
  if (!text.trimStart().startsWith('(function')) return null;
  const call = text.indexOf(CALL);
  if (call < 0) return null;
  const start = call + CALL.length - 1;
  const end = objectEnd(text, start);
  if (end < 0) return null;
  let config: Partial<Record<keyof EarlyDocumentConfig, unknown>>;
  try {
    config = JSON.parse(text.slice(start, end)) as typeof config;
  } catch {
    return null;
  }
  const { pageNames, missingAttribute, notFoundTitle, frameAttribute } = config;
  if (!isStringList(pageNames) || typeof missingAttribute !== 'string' || missingAttribute === '') return null;
  if (typeof notFoundTitle !== 'string' || typeof frameAttribute !== 'string') return null;
  return { pageNames, missingAttribute, notFoundTitle };
}
