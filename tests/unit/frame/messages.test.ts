import {
  agentReady,
  appChangedUrl,
  appError,
  closeDropdowns,
  elementPositionUpdate,
  elementSelected,
  INCOMING_MESSAGE_TYPES,
  isIncomingMessage,
  MAX_CLASSES_LENGTH,
  MAX_CONTENT_LENGTH,
  MAX_SELECTOR_ID_LENGTH,
  parseIncomingMessage,
} from '@/lib/frame/messages';

import { PLAIN_ELEMENT_FIELDS } from '../../e2e/fixtures/editor/element-fields';

const ID = 'components/pages/ComingSoon.tsx:17:9';
const accepts = (value: unknown) => parseIncomingMessage(value) !== null;

/** One valid example of every incoming message, as the editor sends it. */
const VALID: Record<string, unknown> = {
  'toggle-visual-edit-mode': { type: 'toggle-visual-edit-mode', data: { enabled: true } },
  'update-classes': { type: 'update-classes', data: { visualSelectorId: ID, classes: 'text-red-500 p-4' } },
  'update-attribute': {
    type: 'update-attribute',
    data: { visualSelectorId: ID, attribute: 'src', value: 'https://cdn.example/a.png', arrIndex: 2 },
  },
  'update-content': { type: 'update-content', data: { visualSelectorId: ID, content: 'Neuer Text' } },
  'unselect-element': { type: 'unselect-element' },
  'refresh-page': { type: 'refresh-page', data: {} },
  'request-element-position': { type: 'request-element-position', data: { visualSelectorId: ID } },
  'popover-drag-state': { type: 'popover-drag-state', data: { isDragging: false } },
  'dropdown-state': { type: 'dropdown-state', data: { isOpen: true } },
  'update-theme-variables': {
    type: 'update-theme-variables',
    data: { variables: { '--primary': '#123456' }, mode: 'dark' },
  },
  'inject-font-import': {
    type: 'inject-font-import',
    data: { fontUrl: 'https://fonts.googleapis.com/css2?family=Inter' },
  },
  'inject-font-face': { type: 'inject-font-face', data: { id: 'inter', css: "@font-face { font-family: 'Inter'; }" } },
  'toggle-inline-edit-mode': {
    type: 'toggle-inline-edit-mode',
    data: { dataSourceLocation: ID, inlineEditingMode: true },
  },
  'freeze-vh-units': { type: 'freeze-vh-units', referenceVhBase: 800 },
  'measure-page-height': { type: 'measure-page-height', settleMs: 100 },
  'suppress-auto-popups': { type: 'suppress-auto-popups' },
  'toggle-canvas-wheel-zoom-bridge': { type: 'toggle-canvas-wheel-zoom-bridge' },
};

describe('incoming message guards', () => {
  it('has a valid example for every incoming type, and each one parses', () => {
    expect(Object.keys(VALID).sort()).toEqual([...INCOMING_MESSAGE_TYPES].sort());
    for (const message of Object.values(VALID)) expect(isIncomingMessage(message)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'toggle-visual-edit-mode'],
    ['an array', [{ type: 'refresh-page' }]],
    ['no type', { data: { enabled: true } }],
    ['an unknown type', { type: 'eval', data: 'alert(1)' }],
    ['a type in the wrong case', { type: 'Refresh-Page' }],
    ['a class instance instead of a plain object', Object.assign(new (class Message {})(), { type: 'refresh-page' })],
  ])('rejects %s', (_label, value) => {
    expect(parseIncomingMessage(value)).toBeNull();
  });

  it('checks toggle-visual-edit-mode for a boolean enabled', () => {
    expect(accepts({ type: 'toggle-visual-edit-mode', data: { enabled: false } })).toBe(true);
    expect(accepts({ type: 'toggle-visual-edit-mode', data: { enabled: 'true' } })).toBe(false);
    expect(accepts({ type: 'toggle-visual-edit-mode', data: { enabled: 1 } })).toBe(false);
    expect(accepts({ type: 'toggle-visual-edit-mode' })).toBe(false);
    expect(accepts({ type: 'toggle-visual-edit-mode', data: [true] })).toBe(false);
  });

  it('reads the inline-editing switch of toggle-visual-edit-mode from specs', () => {
    const specs = (value: unknown) => ({
      type: 'toggle-visual-edit-mode',
      data: { enabled: true, specs: { newInlineEditEnabled: value } },
    });
    expect(parseIncomingMessage(specs(true))).toEqual({
      type: 'toggle-visual-edit-mode',
      data: { enabled: true, inlineEditEnabled: true },
    });
    expect(parseIncomingMessage(specs(undefined))).toEqual({
      type: 'toggle-visual-edit-mode',
      data: { enabled: true, inlineEditEnabled: null },
    });
    expect(accepts(specs('yes'))).toBe(false);
    expect(accepts({ type: 'toggle-visual-edit-mode', data: { enabled: true, specs: 'x' } })).toBe(false);
  });

  it('checks update-classes ids and class strings', () => {
    const base = { visualSelectorId: ID, classes: 'p-4' };
    expect(accepts({ type: 'update-classes', data: base })).toBe(true);
    expect(accepts({ type: 'update-classes', data: { ...base, classes: ['p-4'] } })).toBe(false);
    expect(accepts({ type: 'update-classes', data: { ...base, classes: 'x'.repeat(MAX_CLASSES_LENGTH + 1) } })).toBe(
      false,
    );
    expect(accepts({ type: 'update-classes', data: { ...base, visualSelectorId: '' } })).toBe(false);
    expect(accepts({ type: 'update-classes', data: { ...base, visualSelectorId: 'a\nb' } })).toBe(false);
    expect(
      accepts({ type: 'update-classes', data: { ...base, visualSelectorId: 'x'.repeat(MAX_SELECTOR_ID_LENGTH + 1) } }),
    ).toBe(false);
    expect(accepts({ type: 'update-classes', data: { ...base, visualSelectorId: 42 } })).toBe(false);
  });

  it('checks update-content for a bounded string', () => {
    expect(accepts({ type: 'update-content', data: { visualSelectorId: ID, content: '' } })).toBe(true);
    expect(
      accepts({ type: 'update-content', data: { visualSelectorId: ID, content: 'x'.repeat(MAX_CONTENT_LENGTH) } }),
    ).toBe(true);
    expect(
      accepts({ type: 'update-content', data: { visualSelectorId: ID, content: 'x'.repeat(MAX_CONTENT_LENGTH + 1) } }),
    ).toBe(false);
    expect(accepts({ type: 'update-content', data: { visualSelectorId: ID, content: { html: '<b>x</b>' } } })).toBe(
      false,
    );
    expect(accepts({ type: 'update-content', data: { content: 'x' } })).toBe(false);
  });

  it('accepts payload-less messages with no data, null or an object, and nothing else', () => {
    for (const type of [
      'unselect-element',
      'refresh-page',
      'request-element-position',
      'suppress-auto-popups',
      'toggle-canvas-wheel-zoom-bridge',
    ]) {
      expect(accepts({ type })).toBe(true);
      expect(accepts({ type, data: null })).toBe(true);
      expect(accepts({ type, data: { anything: 1 } })).toBe(true);
      expect(accepts({ type, data: 'now' })).toBe(false);
      expect(accepts({ type, data: [] })).toBe(false);
    }
  });

  it('checks update-attribute and update-content array indexes', () => {
    const attribute = (arrIndex: unknown) => ({
      type: 'update-attribute',
      data: { visualSelectorId: ID, attribute: 'src', value: '/a.png', arrIndex },
    });
    expect(parseIncomingMessage(attribute('3'))).toMatchObject({ data: { arrIndex: '3' } });
    expect(parseIncomingMessage(attribute(undefined))).toMatchObject({ data: { arrIndex: null } });
    expect(accepts(attribute(-1))).toBe(false);
    expect(accepts(attribute('1 OR 1'))).toBe(false);
    expect(accepts({ type: 'update-attribute', data: { visualSelectorId: ID, attribute: 'src' } })).toBe(false);
  });

  it('accepts theme variables only as custom properties with string values', () => {
    const theme = (variables: unknown, mode?: unknown) => ({
      type: 'update-theme-variables',
      data: { variables, mode },
    });
    expect(parseIncomingMessage(theme({ '--a': '1px', '--b-c': 'red' }))).toEqual({
      type: 'update-theme-variables',
      data: {
        variables: [
          ['--a', '1px'],
          ['--b-c', 'red'],
        ],
        mode: 'light',
      },
    });
    expect(accepts(theme({ color: 'red' }))).toBe(false);
    expect(accepts(theme({ '--a': 4 }))).toBe(false);
    expect(accepts(theme({ '--a': '1px' }, 'sepia'))).toBe(false);
    expect(accepts(theme(JSON.parse('{"__proto__": "x"}')))).toBe(false);
  });

  it('checks the fonts, inline editing and canvas sizing messages', () => {
    expect(accepts({ type: 'inject-font-import', data: { fontUrl: '' } })).toBe(false);
    expect(accepts({ type: 'inject-font-face', data: { id: ' ', css: '@font-face {}' } })).toBe(false);
    expect(
      accepts({ type: 'toggle-inline-edit-mode', data: { dataSourceLocation: ID, inlineEditingMode: 'on' } }),
    ).toBe(false);
    expect(parseIncomingMessage({ type: 'freeze-vh-units' })).toEqual({
      type: 'freeze-vh-units',
      referenceVhBase: null,
    });
    expect(accepts({ type: 'freeze-vh-units', referenceVhBase: -5 })).toBe(false);
    expect(parseIncomingMessage({ type: 'measure-page-height', settleMs: '5' })).toEqual({
      type: 'measure-page-height',
      settleMs: null,
    });
    expect(accepts({ type: 'measure-page-height', settleMs: Number.POSITIVE_INFINITY })).toBe(false);
  });

  it('checks the drag and dropdown states for booleans', () => {
    expect(accepts({ type: 'popover-drag-state', data: { isDragging: true } })).toBe(true);
    expect(accepts({ type: 'popover-drag-state', data: { isDragging: null } })).toBe(false);
    expect(accepts({ type: 'dropdown-state', data: { isOpen: false } })).toBe(true);
    expect(accepts({ type: 'dropdown-state', data: {} })).toBe(false);
  });
});

describe('parseIncomingMessage', () => {
  it('copies only the known fields into a new object', () => {
    const raw = {
      type: 'update-classes',
      extra: 'ignored',
      data: { visualSelectorId: ID, classes: 'p-4', replace: true, onload: 'alert(1)' },
    };
    const parsed = parseIncomingMessage(raw);
    expect(parsed).toEqual({ type: 'update-classes', data: { visualSelectorId: ID, classes: 'p-4' } });
    expect(parsed).not.toBe(raw);
  });

  it('normalises optional fields', () => {
    expect(parseIncomingMessage({ type: 'update-content', data: { visualSelectorId: ID, content: 'x' } })).toEqual({
      type: 'update-content',
      data: { visualSelectorId: ID, content: 'x', arrIndex: null },
    });
    expect(parseIncomingMessage({ type: 'request-element-position', data: { visualSelectorId: ID } })).toEqual({
      type: 'request-element-position',
    });
    expect(parseIncomingMessage({ type: 'refresh-page', data: { reason: 'x' } })).toEqual({ type: 'refresh-page' });
  });

  it('ignores an own __proto__ key instead of following it', () => {
    const raw = JSON.parse('{"type":"toggle-visual-edit-mode","data":{"enabled":true,"__proto__":{"polluted":true}}}');
    const parsed = parseIncomingMessage(raw);
    expect(parsed).toEqual({ type: 'toggle-visual-edit-mode', data: { enabled: true, inlineEditEnabled: null } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('outgoing builders', () => {
  const position = { top: 1, left: 2, right: 12, bottom: 21, width: 10, height: 20, centerX: 7, centerY: 11 };

  it('builds every outgoing message with its type', () => {
    expect(agentReady()).toEqual({ type: 'visual-edit-agent-ready' });
    expect(closeDropdowns()).toEqual({ type: 'close-dropdowns' });
    expect(appChangedUrl('http://x/ComingSoon')).toEqual({ type: 'app_changed_url', url: 'http://x/ComingSoon' });
    expect(elementPositionUpdate(ID, position, true)).toEqual({
      type: 'element-position-update',
      position,
      isInViewport: true,
      visualSelectorId: ID,
    });
    const error = { title: 'Boom', details: 'Error: Boom', componentName: 'Hero', stack: null };
    expect(appError(error)).toEqual({ type: 'app_error', error });
  });

  it('caps the text and classes of element-selected', () => {
    const message = elementSelected({
      tagName: 'H1',
      classes: 'c'.repeat(MAX_CLASSES_LENGTH + 10),
      visualSelectorId: ID,
      content: 't'.repeat(MAX_CONTENT_LENGTH + 10),
      dataSourceLocation: ID,
      isDynamicContent: false,
      ...PLAIN_ELEMENT_FIELDS,
      isTextElement: true,
      position,
    });
    expect(message.type).toBe('element-selected');
    expect(message.classes).toHaveLength(MAX_CLASSES_LENGTH);
    expect(message.content).toHaveLength(MAX_CONTENT_LENGTH);
    expect(message.position).toBe(position);
  });
});
