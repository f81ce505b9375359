/**
 * One code style, checked by `npm test` (`npm run format:check`) and written by `npm run format`.
 * Imports are sorted so that diffs show what changed, not where someone put a line.
 * @type {import('prettier').Config}
 */
const config = {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  plugins: ['@ianvs/prettier-plugin-sort-imports'],
  importOrder: ['<BUILTIN_MODULES>', '<THIRD_PARTY_MODULES>', '', '^@/(.*)$', '', '^[.]'],
  importOrderTypeScriptVersion: '6.0.0',
};

export default config;
