import type { OutgoingMessage } from '@/lib/frame/messages';
import { createVisualEditAgent, type VisualEditAgent } from '@/lib/frame/visual-edit/agent';
import { layerChain } from '@/lib/frame/visual-edit/layer-chain';

let agent: VisualEditAgent;
let posted: OutgoingMessage[];

beforeEach(() => {
  document.body.innerHTML = `
    <main data-source-location="m">
      <section data-source-location="s">
        <p data-source-location="badge">Bald <span data-source-location="dot"></span></p>
        <div><h1 data-source-location="h"><em data-source-location="em">x</em></h1></div>
        <p data-source-location="text">a</p>
        <p data-source-location="text">b</p>
      </section>
    </main>`;
  posted = [];
  agent = createVisualEditAgent({
    win: window,
    post: (message) => posted.push(message),
    loadTailwind: () => Promise.resolve(),
  });
  agent.handle({ type: 'toggle-visual-edit-mode', data: { enabled: true, inlineEditEnabled: null } });
});

afterEach(() => agent.stop());

const heading = () => document.querySelector('h1') as HTMLElement;
const label = () => document.querySelector('[data-visual-edit-layer="label"]') as HTMLElement;
const key = (name: string) =>
  document.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
const lastSelected = () =>
  posted.filter((message) => message.type === 'element-selected').at(-1) as { visualSelectorId?: string } | undefined;

describe('layerChain', () => {
  it('lists two ancestor levels, the siblings once per id, and two levels below the selection', () => {
    expect(layerChain(heading()).map((layer) => `${'  '.repeat(layer.depth)}${layer.tagName}`)).toEqual([
      'main',
      '  section',
      '    p',
      '    h1',
      '      em',
      '    p',
    ]);
  });

  it('has only the element itself when nothing around it is annotated', () => {
    document.body.innerHTML = '<h1 data-source-location="h">x</h1>';
    expect(layerChain(heading())).toHaveLength(1);
  });
});

describe('the layer menu', () => {
  beforeEach(() => {
    heading().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    posted = [];
  });

  it('opens from the label, clears the selection, and picks a layer with the keyboard', () => {
    label().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(posted).toEqual([{ type: 'unselect-element' }]);
    const entries = Array.from(
      document.querySelectorAll('[data-visual-edit-layer="menu"] > div'),
      (entry) => entry.textContent,
    );
    expect(entries).toEqual(['main', 'section', 'p', 'h1', 'em', 'p']);
    key('ArrowUp');
    key('Enter');
    expect(lastSelected()?.visualSelectorId).toBe('badge');
    expect(document.querySelector('[data-visual-edit-layer="menu"]')).toBeNull();
  });

  it('brings the previous selection back on Escape', () => {
    label().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    key('Escape');
    expect(posted.map((message) => message.type)).toEqual(['unselect-element', 'element-selected']);
    expect(lastSelected()?.visualSelectorId).toBe('h');
  });

  it('picks a layer with the mouse; the label reads the tag alone, its chevron an icon that turns', () => {
    const chevron = () => label().querySelector('svg > path')?.getAttribute('d');
    // As the reference's label: the tag name as text, the chevron an SVG (so the text is "h1", not "h1 ▾").
    expect(label().textContent).toBe('h1');
    expect(chevron()).toBe('M6 9l6 6 6-6');
    label().dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(chevron()).toBe('M18 15l-6-6-6 6');
    const first = document.querySelector('[data-visual-edit-layer="menu"] > div') as HTMLElement;
    first.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(lastSelected()?.visualSelectorId).toBe('m');
    // Built element by element: one icon of one path, nothing parsed from markup, no script.
    expect(document.querySelectorAll('[data-visual-edit-layer] svg > *')).toHaveLength(
      document.querySelectorAll('[data-visual-edit-layer] svg > path').length,
    );
    expect(document.querySelector('[data-visual-edit-layer] script')).toBeNull();
  });
});
