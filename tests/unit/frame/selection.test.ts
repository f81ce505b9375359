import {
  applyClasses,
  applyTextContent,
  cssEscape,
  describeElement,
  editableElementFrom,
  findElementsById,
  selectorForId,
} from '@/lib/frame/visual-edit/selection';

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

describe('describeElement', () => {
  it('reports tag, classes, collapsed text and the annotation', () => {
    document.body.innerHTML = `<h1 class="text-4xl  font-semibold" data-source-location="components/pages/ComingSoon.tsx:17:9" data-dynamic-content="true">
        Unsere neue   Website</h1>`;
    const heading = document.querySelector('h1') as HTMLElement;
    expect(describeElement(heading, 'components/pages/ComingSoon.tsx:17:9')).toEqual({
      tagName: 'h1',
      classes: 'text-4xl  font-semibold',
      visualSelectorId: 'components/pages/ComingSoon.tsx:17:9',
      content: 'Unsere neue Website',
      dataSourceLocation: 'components/pages/ComingSoon.tsx:17:9',
      isDynamicContent: true,
    });
  });

  it('reads SVG classes, whose className is not a string', () => {
    document.body.innerHTML = `<svg class="size-4" data-visual-selector-id="icon"></svg>`;
    const svg = document.querySelector('svg') as Element;
    expect(describeElement(svg, 'icon')).toMatchObject({ tagName: 'svg', classes: 'size-4', dataSourceLocation: null, isDynamicContent: false });
  });
});

describe('applyClasses', () => {
  it('replaces the class list when asked to', () => {
    document.body.innerHTML = `<p class="a b">x</p>`;
    const p = document.querySelector('p') as Element;
    applyClasses(p, '  c   d c ', true);
    expect(p.getAttribute('class')).toBe('c d');
  });

  it('otherwise adds the new classes to the existing ones', () => {
    document.body.innerHTML = `<p class="a b">x</p>`;
    const p = document.querySelector('p') as Element;
    applyClasses(p, 'b bg-[rgb(1,2,3)]', false);
    expect(p.getAttribute('class')).toBe('a b bg-[rgb(1,2,3)]');
  });
});

describe('applyTextContent', () => {
  it('changes the existing text node, as text, never as markup', () => {
    document.body.innerHTML = `<h1>Alt</h1>`;
    const heading = document.querySelector('h1') as Element;
    const textNode = heading.firstChild;
    expect(applyTextContent(heading, '<img src=x onerror=alert(1)>')).toBe(true);
    expect(heading.firstChild).toBe(textNode);
    expect(heading.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(heading.querySelector('img')).toBeNull();
  });

  it('fills an empty element and merges several text nodes', () => {
    document.body.innerHTML = `<p></p><span>a</span>`;
    const p = document.querySelector('p') as Element;
    expect(applyTextContent(p, 'neu')).toBe(true);
    expect(p.textContent).toBe('neu');
    const span = document.querySelector('span') as Element;
    span.append(document.createTextNode('b'));
    expect(applyTextContent(span, 'c')).toBe(true);
    expect(span.childNodes).toHaveLength(1);
    expect(span.textContent).toBe('c');
  });

  it('refuses elements with child elements, which React still owns', () => {
    document.body.innerHTML = `<p>Hallo <strong>Welt</strong></p>`;
    const p = document.querySelector('p') as Element;
    expect(applyTextContent(p, 'weg')).toBe(false);
    expect(p.innerHTML).toBe('Hallo <strong>Welt</strong>');
  });
});
