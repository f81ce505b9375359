import { cssEscape, editableElementFrom, findElementsById, selectorForId } from '@/lib/frame/visual-edit/selection';

afterEach(() => {
  document.body.replaceChildren();
});

describe('cssEscape', () => {
  it.each([
    ['app/page.tsx:12:5', 'app\\/page\\.tsx\\:12\\:5'],
    ['a"b', 'a\\"b'],
    ['a]b', 'a\\]b'],
    ['1abc', '\\31 abc'],
    ['-1', '-\\31 '],
    ['-', '\\-'],
    ['\0x', '\uFFFDx'],
    ['a\u0001b', 'a\\1 b'],
    ['ümlaut_-x9', 'ümlaut_-x9'],
  ])('escapes %j like CSS.escape', (input, expected) => {
    expect(cssEscape(input)).toBe(expected);
  });
});

describe('finding elements by id', () => {
  it('finds every element sharing a source location or selector id', () => {
    document.body.innerHTML = `
      <ul><li data-source-location="app/list.tsx:4:9">a</li><li data-source-location="app/list.tsx:4:9">b</li></ul>
      <p data-visual-selector-id="hero-text">c</p>`;
    expect(findElementsById(window, 'app/list.tsx:4:9').map((element) => element.textContent)).toEqual(['a', 'b']);
    expect(findElementsById(window, 'hero-text')).toHaveLength(1);
    expect(findElementsById(window, 'missing')).toEqual([]);
  });

  it('treats hostile ids as plain text, never as selector syntax', () => {
    document.body.innerHTML = `<p data-source-location="x">x</p><p data-source-location='a"]'>quoted</p>`;
    for (const id of ['"], *, [x="', '*', 'x"], p, [data-source-location="x', '\\', '"', ']', '{}', '<script>']) {
      expect(() => findElementsById(window, id)).not.toThrow();
    }
    expect(findElementsById(window, '"], *, [x="')).toEqual([]);
    expect(findElementsById(window, 'a"]').map((element) => element.textContent)).toEqual(['quoted']);
  });

  it('builds the selector from the escaped id', () => {
    expect(selectorForId(window, 'a"b')).toBe('[data-source-location="a\\"b"], [data-visual-selector-id="a\\"b"]');
  });

  it('finds the nearest editable ancestor of an event target and never an overlay', () => {
    document.body.innerHTML = `
      <h1 data-source-location="app/page.tsx:3:5"><span>inner</span></h1>
      <div data-visual-edit-overlay="hover" data-source-location="fake"><b>overlay</b></div>`;
    const span = document.querySelector('span');
    expect(editableElementFrom(span)?.tagName).toBe('H1');
    expect(editableElementFrom(document.querySelector('b'))).toBeNull();
    expect(editableElementFrom(window)).toBeNull();
    expect(editableElementFrom(null)).toBeNull();
  });
});
