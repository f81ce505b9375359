import { describeSelection } from '@/lib/frame/visual-edit/describe';
import {
  applyAttribute,
  applyClasses,
  applyTextContent,
  atArrayIndex,
  isSafeMediaUrl,
} from '@/lib/frame/visual-edit/edits';

const BASE = 'https://site.example/page';

afterEach(() => {
  document.body.replaceChildren();
});

describe('describeSelection', () => {
  it('reports the tag as the element does, the annotations and the static-array and collection markers', () => {
    document.body.innerHTML = `
      <ul data-arr-variable-name="features" data-arr-index="2" data-collection-id="c1">
        <li data-collection-item-id="i9" data-collection-item-field="title">
          <span class="a  b" data-source-location="x.tsx:3:5" data-arr-field="title" data-linenumber="3" data-filename="x.tsx" data-dynamic-content="true">T</span>
        </li>
      </ul>`;
    const span = document.querySelector('span') as Element;
    expect(describeSelection(span, 'x.tsx:3:5')).toMatchObject({
      tagName: 'SPAN',
      classes: 'a  b',
      dataSourceLocation: 'x.tsx:3:5',
      isDynamicContent: true,
      linenumber: '3',
      filename: 'x.tsx',
      isTextElement: true,
      attributes: {},
      staticArrayName: 'features',
      staticArrayIndex: 2,
      staticArrayField: 'title',
      collectionId: 'c1',
      collectionItemField: 'title',
      collectionItemId: 'i9',
    });
  });

  it('reports no content for non-text elements, image components as IMG with their real src, and SVG classes', () => {
    document.body.innerHTML = `<div data-base44-image data-base44-image-src="/real.png" src="/placeholder.png">x</div><svg class="size-4"></svg>`;
    expect(describeSelection(document.querySelector('div') as Element, 'd')).toMatchObject({
      tagName: 'IMG',
      content: undefined,
      isTextElement: false,
      attributes: { src: '/real.png' },
    });
    expect(describeSelection(document.querySelector('svg') as Element, 's')).toMatchObject({
      tagName: 'svg',
      classes: 'size-4',
      dataSourceLocation: undefined,
    });
  });
});

describe('applyClasses', () => {
  it('sets the class attribute to exactly the string sent, so a utility can be removed', () => {
    document.body.innerHTML = `<p class="text-4xl font-bold">x</p>`;
    const p = document.querySelector('p') as Element;
    applyClasses(p, 'text-2xl font-bold');
    expect(p.getAttribute('class')).toBe('text-2xl font-bold');
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

  it('turns line breaks into <br>, as innerText does', () => {
    document.body.innerHTML = `<p>Alt</p>`;
    const p = document.querySelector('p') as Element;
    expect(applyTextContent(p, 'Bis bald\r\nIhr <b>Team</b>\n')).toBe(true);
    expect(p.innerHTML).toBe('Bis bald<br>Ihr &lt;b&gt;Team&lt;/b&gt;<br>');
  });

  it('refuses elements with child elements, which React still owns', () => {
    document.body.innerHTML = `<p>Hallo <strong>Welt</strong></p>`;
    const p = document.querySelector('p') as Element;
    expect(applyTextContent(p, 'weg')).toBe(false);
    expect(p.innerHTML).toBe('Hallo <strong>Welt</strong>');
  });
});

describe('applyAttribute', () => {
  it('sets src on media elements only, and only to URLs that load media', () => {
    document.body.innerHTML = `<img src="/a.png"><iframe src="/x"></iframe><h1>t</h1>`;
    const [img, frame, heading] = Array.from(document.body.children);
    expect(applyAttribute(img as Element, 'src', '/b.png', BASE)).toBe(true);
    expect(img?.getAttribute('src')).toBe('/b.png');
    expect(applyAttribute(img as Element, 'src', 'javascript:alert(1)', BASE)).toBe(false);
    expect(applyAttribute(img as Element, 'onerror', 'alert(1)', BASE)).toBe(false);
    expect(applyAttribute(frame as Element, 'src', 'https://evil.example/', BASE)).toBe(false);
    expect(applyAttribute(heading as Element, 'src', '/b.png', BASE)).toBe(false);
    expect(img?.getAttribute('src')).toBe('/b.png');
    expect(frame?.getAttribute('src')).toBe('/x');
    expect(heading?.hasAttribute('src')).toBe(false);
  });

  it('asks an image component to swap its source instead of setting an attribute', () => {
    document.body.innerHTML = `<div data-base44-image></div>`;
    const component = document.querySelector('div') as Element;
    const swaps: unknown[] = [];
    component.addEventListener('base44:image-replace', (event) => swaps.push((event as CustomEvent).detail));
    expect(applyAttribute(component, 'src', 'https://cdn.example/c.webp', BASE)).toBe(true);
    expect(swaps).toEqual([{ src: 'https://cdn.example/c.webp' }]);
    expect(component.hasAttribute('src')).toBe(false);
  });

  it('accepts http(s), blob and image data URLs', () => {
    expect(isSafeMediaUrl('data:image/png;base64,AAAA', BASE)).toBe(true);
    expect(isSafeMediaUrl('data:text/html,<script>alert(1)</script>', BASE)).toBe(false);
    expect(isSafeMediaUrl('blob:https://site.example/1', BASE)).toBe(true);
    expect(isSafeMediaUrl('vbscript:x', BASE)).toBe(false);
  });

  it('picks the elements of one static-array index', () => {
    document.body.innerHTML = `<img data-arr-index="0"><img data-arr-index="1">`;
    const images = Array.from(document.querySelectorAll('img'));
    expect(atArrayIndex(images, '1')).toEqual([images[1]]);
    expect(atArrayIndex(images, null)).toEqual(images);
  });
});
