import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { removeNotFoundNoindex } from '@/build-steps/export/postprocess-export';

const ELEMENT = '["$","meta",null,{"name":"robots","content":"noindex"}],';
const html = (head: string, payload: string) =>
  `<html><head>${head}<title>x</title></head><body><script>self.__next_f.push([1,${JSON.stringify(`a:{"children":[${payload}["$","div",null,{}]]}`)}])</script></body></html>`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'export-'));
  mkdirSync(path.join(dir, '_not-found'));
  writeFileSync(path.join(dir, '_not-found', '__next._full.txt'), `a:{"children":[${ELEMENT}["$","div",null,{}]]}`);
  writeFileSync(path.join(dir, '_not-found.txt'), `a:{"children":[${ELEMENT}["$","div",null,{}]]}`);
  writeFileSync(path.join(dir, '_not-found.html'), html('<meta name="robots" content="noindex"/>', ELEMENT));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("removing Next.js's noindex from the not-found page", () => {
  it('removes it from the HTML head and from every copy of the React payload', () => {
    writeFileSync(path.join(dir, '404.html'), html('<meta name="robots" content="noindex"/>', ELEMENT));
    const changed = removeNotFoundNoindex(dir).sort();
    expect(changed).toEqual(
      ['404.html', '_not-found.html', '_not-found.txt', path.join('_not-found', '__next._full.txt')].sort(),
    );
    const page = readFileSync(path.join(dir, '404.html'), 'utf8');
    expect(page).not.toContain('noindex');
    expect(page).toBe(html('', ''));
  });

  it('stops the build when the markup is not the expected shape', () => {
    writeFileSync(path.join(dir, '404.html'), html('<meta name="robots" content="noindex, nofollow"/>', ELEMENT));
    expect(() => removeNotFoundNoindex(dir)).toThrow(/404\.html: expected one robots noindex tag/);
  });
});
