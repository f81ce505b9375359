/**
 * The production stylesheet is generated from the site's markup only: classes that exist only in
 * tests (the editor fixtures' `bg-[rgb(1,2,3)]`, `decoration-[rgb(90,12,34)]`) or only as words in
 * code that renders nothing (lib/) must not reach visitors. Compiled here the way `next build`
 * compiles it (postcss.config.mjs: @tailwindcss/postcss).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

// Tailwind's PostCSS plugin is ESM-only (Jest here runs CommonJS): compile in a child Node, from the
// repository root as `next build` does, and hand back every rule's selector.
const COMPILE = `
import postcss from 'postcss';
import tailwind from '@tailwindcss/postcss';
import { readFileSync } from 'node:fs';
const from = process.cwd() + '/app/globals.css';
const result = await postcss([tailwind()]).process(readFileSync(from, 'utf8'), { from });
const selectors = [];
result.root.walkRules((rule) => void selectors.push(rule.selector));
process.stdout.write(JSON.stringify(selectors));
`;

let selectors: Set<string>;
beforeAll(() => {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', COMPILE], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  selectors = new Set(JSON.parse(output) as string[]);
}, 60_000);

it.each([
  ['bg-[rgb(1,2,3)]', '.bg-\\[rgb\\(1\\,2\\,3\\)\\]'],
  ['decoration-[rgb(90,12,34)]', '.decoration-\\[rgb\\(90\\,12\\,34\\)\\]'],
  ['bg-[rgb(200,0,0)]', '.bg-\\[rgb\\(200\\,0\\,0\\)\\]'],
  ['text-red-500 (fuzz fixture)', '.text-red-500'],
  // Words of lib/, which renders no markup: a comment of lib/frame/visual-edit/tailwind-runtime.ts.
  ['bg-fuchsia-700 (a comment in lib/)', '.bg-fuchsia-700'],
])('lacks the class %s, which no markup of the site uses', (_label, selector) => {
  expect(selectors.has(selector)).toBe(false);
});

it('still has the classes the site uses (screens, pages)', () => {
  const used = readFileSync(path.join(ROOT, 'components/screens/PageNotFound.tsx'), 'utf8');
  expect(used).toContain('min-h-dvh');
  expect(selectors.has('.min-h-dvh')).toBe(true);
  expect(selectors.has('.tabular-nums')).toBe(true);
});
