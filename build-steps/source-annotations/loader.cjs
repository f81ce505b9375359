/**
 * Turbopack/webpack loader: runs annotate-jsx.ts on app/ and components/ .tsx files. next.config.mjs
 * adds it only for `next dev` and the editor preview build (NEXT_PUBLIC_SOURCE_ANNOTATIONS=1).
 *
 * Loaders run in plain Node, which cannot load TypeScript, so the transform is loaded through tsx's
 * scoped require (it compiles only what it is asked for and leaves Node's own loader untouched).
 */
const path = require('node:path');
const { require: requireTypeScript } = require('tsx/cjs/api');

const { annotateJsx } = requireTypeScript('./annotate-jsx.ts', __filename);

module.exports = function sourceAnnotationsLoader(source) {
  const options = (typeof this.getOptions === 'function' ? this.getOptions() : this.query) || {};
  const root = typeof options.root === 'string' ? options.root : process.cwd();
  const relative = path.relative(root, this.resourcePath);
  // Never annotate with a path outside the project: it would leak the build machine's layout.
  if (relative.startsWith('..') || path.isAbsolute(relative)) return source;
  return annotateJsx(String(source), relative).code;
};
