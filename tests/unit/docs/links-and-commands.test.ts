/** @jest-environment node */
/**
 * Every Markdown file of the repository keeps its links and quoted commands working: a relative link
 * reaches a file that exists, a `#anchor` a heading that exists (GitHub's slugs), an `npm run X` /
 * `npm X` a script of package.json, an `npx X` a command of node_modules/.bin, and `npx tsx FILE` /
 * `node FILE` a file. Moving a section or renaming a script then fails here, naming the doc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { checkCommands, checkMarkdownFile, headingAnchors, type Repository } from './markdown-check';

const ROOT = path.resolve(__dirname, '../../..');

/** The repository's Markdown files as git sees them (tracked or new), so ignored folders stay out. */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)))
    .sort();
}

function repositoryView(files: readonly string[]): Repository {
  const markdown = new Set(files);
  const anchors = new Map<string, Set<string>>();
  const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return {
    exists: (relativePath) => existsSync(path.join(ROOT, relativePath)),
    anchorsOf(relativePath) {
      if (!markdown.has(relativePath)) return null;
      let found = anchors.get(relativePath);
      if (found === undefined) {
        found = headingAnchors(readFileSync(path.join(ROOT, relativePath), 'utf8'));
        anchors.set(relativePath, found);
      }
      return found;
    },
    scripts: new Set(Object.keys(packageJson.scripts)),
    bins: new Set(readdirSync(path.join(ROOT, 'node_modules', '.bin'))),
  };
}

const FILES = markdownFiles();
const REPOSITORY = repositoryView(FILES);

it('finds the docs (README.md, docs/, the emulator and SDK guides)', () => {
  expect(FILES).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'emulator/README.md']));
  expect(FILES.some((file) => file.startsWith('node_modules/'))).toBe(false);
});

it.each(FILES)('%s: its relative links, anchors and quoted commands work', (file) => {
  expect(checkMarkdownFile(file, readFileSync(path.join(ROOT, file), 'utf8'), REPOSITORY)).toEqual([]);
});

describe('the check itself', () => {
  const repo: Repository = {
    exists: (file) => ['README.md', 'docs', 'docs/GUIDE.md', 'tools/run.ts'].includes(file),
    anchorsOf: (file) =>
      file === 'docs/GUIDE.md'
        ? headingAnchors('# Guide\n\n## The client (`lib/sdk`)\n\n## Deploy\n\n## Deploy\n')
        : file === 'README.md'
          ? headingAnchors('# Readme\n')
          : null,
    scripts: new Set(['test', 'dev', 'test:unit']),
    bins: new Set(['tsx', 'jest']),
  };

  it('accepts links, anchors (GitHub slugs, repeats numbered) and commands that work', () => {
    const text = [
      '[guide](GUIDE.md), [client](GUIDE.md#the-client-libsdk), [again](GUIDE.md#deploy-1)',
      '[up](../README.md#readme), [root](/tools/run.ts#L3), [folder](./), [web](https://example.com/x.md#nope)',
      '`npm install && npm test`, `npm run dev -- --port 1`, `npx tsx tools/run.ts`, `npx --yes serve@14`',
      '```sh\nPORT=1 npm run test:unit   # or: npm run dev\nnpx jest tests/unit\n```',
    ].join('\n\n');
    expect(checkMarkdownFile('docs/GUIDE.md', text, repo)).toEqual([]);
  });

  it('names each broken link, missing anchor and unknown command', () => {
    const text = [
      '[gone](MOVED.md), [anchor](GUIDE.md#deploy-2), [here](#nothing), [outside](../../x.md)',
      '[ref]\n\n[ref]: ../README.md#quick-start',
      '`npm run test:fast`, `npm tset`, `npx tsx tools/gone.ts`, `npx vitest`, `node tools/gone.mjs`',
    ].join('\n\n');
    expect(checkMarkdownFile('docs/GUIDE.md', text, repo)).toEqual([
      'MOVED.md: docs/MOVED.md does not exist',
      'GUIDE.md#deploy-2: docs/GUIDE.md has no heading #deploy-2',
      '#nothing: docs/GUIDE.md has no heading #nothing',
      '../../x.md: points outside the repository',
      '../README.md#quick-start: README.md has no heading #quick-start',
      'npm run test:fast: package.json has no script "test:fast"',
      'npm tset: neither a script of package.json nor an npm command this check knows (markdown-check.ts)',
      'npx tsx tools/gone.ts: no such file',
      'npx vitest: no such command in node_modules/.bin',
      'node tools/gone.mjs: no such file',
    ]);
  });

  it('reads commands inside code only, line by line and command by command', () => {
    expect(checkCommands('A=1 B=2 npm run nope; npm test | tee x && npm start', repo)).toEqual([
      'npm run nope: package.json has no script "nope"',
      'npm start: package.json has no script "start"',
    ]);
    expect(checkMarkdownFile('README.md', 'Run npm run nope in prose: not a quoted command.', repo)).toEqual([]);
  });
});
