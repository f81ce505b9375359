/**
 * What tests/unit/docs/links-and-commands.test.ts checks in each Markdown file, as pure functions over
 * the file's text and a view of the repository, so the checks can be fed broken documents too.
 *
 * The Markdown is read by markdown-it (CommonMark with GitHub's tables), so a link, a heading or a
 * code span is exactly what a renderer sees, never what a regular expression guesses; heading anchors
 * are github-slugger's, the slugs GitHub gives headings.
 */
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';

/** What the checks need to know about the repository (paths relative to its root, `/`-separated). */
export interface Repository {
  exists(relativePath: string): boolean;
  /** The anchors of a Markdown file's headings, or null when it is no Markdown file of the repo. */
  anchorsOf(relativePath: string): ReadonlySet<string> | null;
  scripts: ReadonlySet<string>;
  /** Commands `npx` runs from node_modules/.bin. */
  bins: ReadonlySet<string>;
}

/**
 * npm's own commands the docs may quote (`npm install`, `npm pack x`); any other `npm X` must be a
 * script of package.json. Extend the list when a doc quotes another real npm command.
 */
const NPM_COMMANDS = new Set(['install', 'i', 'ci', 'pack', 'view', 'exec', 'ls', 'audit', 'outdated']);
/** `npm test`, `npm start`... run the script of that name. */
const NPM_SCRIPT_SHORTHANDS = new Set(['test', 't', 'start', 'stop', 'restart']);

const markdown = new MarkdownIt();

function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/** The anchors GitHub gives the headings of a Markdown text (`#quick-start`, `#deploy-1`...). */
export function headingAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = markdown.parse(text, {});
  const anchors = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') anchors.add(slugger.slug(inlineText(tokens[index + 1])));
  });
  return anchors;
}

function allTokens(text: string): Token[] {
  return markdown.parse(text, {}).flatMap((token) => [token, ...(token.children ?? [])]);
}

/** Every link target of the text, as written (`[a](b)`, reference links and images included). */
export function linkTargets(text: string): string[] {
  return allTokens(text).flatMap((token) => {
    const target =
      token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
    return target === null ? [] : [String(target)];
  });
}

/** The text of every code span and code block, where the docs quote commands. */
export function codeTexts(text: string): string[] {
  return allTokens(text)
    .filter((token) => token.type === 'code_inline' || token.type === 'fence' || token.type === 'code_block')
    .map((token) => token.content);
}

/** GitHub's line anchors (`#L10`, `#L10-L20`) on a file that is not Markdown. */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

function checkLink(file: string, target: string, repo: Repository): string | null {
  // External (`https:`, `mailto:`...): not this test's business.
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const hash = target.indexOf('#');
  const rawPath = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const decoded = decodeURIComponent(rawPath.split('?')[0] ?? '');
  const resolved =
    decoded === ''
      ? file
      : path.posix.normalize(
          decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded),
        );
  if (resolved.startsWith('../') || resolved === '..') return `${target}: points outside the repository`;
  const cleaned = resolved.replace(/\/$/, '') || '.';
  if (!repo.exists(cleaned)) return `${target}: ${cleaned} does not exist`;
  if (anchor === null) return null;
  const anchors = repo.anchorsOf(cleaned);
  if (anchors === null) return LINE_ANCHOR.test(anchor) ? null : `${target}: ${cleaned} has no headings to point into`;
  return anchors.has(anchor) ? null : `${target}: ${cleaned} has no heading #${anchor}`;
}

/** Splits a command line into words, dropping what follows a `#` comment. */
function words(commandLine: string): string[] {
  return commandLine
    .replace(/(^|\s)#.*$/, '')
    .split(/\s+/)
    .filter(Boolean);
}

function checkNpm(args: string[], repo: Repository): string | null {
  const [command, script] = args;
  if (command === undefined) return null;
  if (command === 'run' || command === 'run-script') {
    if (script === undefined || script.startsWith('-')) return null;
    return repo.scripts.has(script) ? null : `npm run ${script}: package.json has no script "${script}"`;
  }
  if (NPM_SCRIPT_SHORTHANDS.has(command))
    return repo.scripts.has(command) ? null : `npm ${command}: package.json has no script "${command}"`;
  if (command.startsWith('-') || NPM_COMMANDS.has(command)) return null;
  return `npm ${command}: neither a script of package.json nor an npm command this check knows (markdown-check.ts)`;
}

function checkFileArgument(runner: string, file: string | undefined, repo: Repository): string | null {
  if (file === undefined || file.startsWith('-') || !/\.(m|c)?[jt]sx?$/.test(file)) return null;
  return repo.exists(path.posix.normalize(file)) ? null : `${runner} ${file}: no such file`;
}

function checkNpx(args: string[], repo: Repository): string | null {
  // `npx --yes pkg@version ...` fetches a package: nothing in the repo to check.
  const [bin, ...rest] = args;
  if (bin === undefined || bin.startsWith('-') || bin.includes('@')) return null;
  if (!repo.bins.has(bin)) return `npx ${bin}: no such command in node_modules/.bin`;
  return bin === 'tsx' || bin === 'node' ? checkFileArgument(`npx ${bin}`, rest[0], repo) : null;
}

/** Problems with the `npm`, `npx` and `node` commands quoted in one code span or block. */
export function checkCommands(code: string, repo: Repository): string[] {
  const problems: string[] = [];
  for (const line of code.split('\n')) {
    // Each command of a line: `a && b`, `a; b`, `a | b`.
    for (const part of line.split(/&&|\|\||;|\|/)) {
      const [first, ...args] = words(part.replace(/^\s*(\w+=\S*\s+)*/, ''));
      const problem =
        first === 'npm'
          ? checkNpm(args, repo)
          : first === 'npx'
            ? checkNpx(args, repo)
            : first === 'node'
              ? checkFileArgument('node', args[0], repo)
              : null;
      if (problem !== null) problems.push(problem);
    }
  }
  return problems;
}

/** Everything wrong with one Markdown file (`file` relative to the repository's root). */
export function checkMarkdownFile(file: string, text: string, repo: Repository): string[] {
  const links = linkTargets(text).flatMap((target) => checkLink(file, target, repo) ?? []);
  const commands = codeTexts(text).flatMap((code) => checkCommands(code, repo));
  return [...links, ...commands];
}
