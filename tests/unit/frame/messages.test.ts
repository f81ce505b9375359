import {
  agentReady,
  appChangedUrl,
  appError,
  closeDropdowns,
  elementPositionUpdate,
  elementSelected,
  INCOMING_MESSAGE_TYPES,
  isDropdownStateMessage,
  isIncomingMessage,
  isPopoverDragStateMessage,
  isRefreshPageMessage,
  isRequestElementPositionMessage,
  isToggleVisualEditModeMessage,
  isUnselectElementMessage,
  isUpdateClassesMessage,
  isUpdateContentMessage,
  MAX_CLASSES_LENGTH,
  MAX_CONTENT_LENGTH,
  MAX_SELECTOR_ID_LENGTH,
  parseIncomingMessage,
} from '@/lib/frame/messages';

const ID = 'components/pages/ComingSoon.tsx:17:9';

/** One valid example of every incoming message, as the editor sends it. */
const VALID: Record<string, unknown> = {
  'toggle-visual-edit-mode': { type: 'toggle-visual-edit-mode', data: { enabled: true } },
  'update-classes': { type: 'update-classes', data: { visualSelectorId: ID, classes: 'text-red-500 p-4', replace: true } },
  'update-content': { type: 'update-content', data: { visualSelectorId: ID, content: 'Neuer Text' } },
  'unselect-element': { type: 'unselect-element' },
  'refresh-page': { type: 'refresh-page', data: {} },
  'request-element-position': { type: 'request-element-position', data: { visualSelectorId: ID } },
  'popover-drag-state': { type: 'popover-drag-state', data: { isDragging: false } },
  'dropdown-state': { type: 'dropdown-state', data: { isOpen: true } },
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
    expect(isToggleVisualEditModeMessage({ type: 'toggle-visual-edit-mode', data: { enabled: false } })).toBe(true);
    expect(isToggleVisualEditModeMessage({ type: 'toggle-visual-edit-mode', data: { enabled: 'true' } })).toBe(false);
    expect(isToggleVisualEditModeMessage({ type: 'toggle-visual-edit-mode', data: { enabled: 1 } })).toBe(false);
    expect(isToggleVisualEditModeMessage({ type: 'toggle-visual-edit-mode' })).toBe(false);
    expect(isToggleVisualEditModeMessage({ type: 'toggle-visual-edit-mode', data: [true] })).toBe(false);
  });

  it('checks update-classes ids, class strings and the optional replace flag', () => {
    const base = { visualSelectorId: ID, classes: 'p-4' };
    expect(isUpdateClassesMessage({ type: 'update-classes', data: base })).toBe(true);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, replace: 'yes' } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, classes: ['p-4'] } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, classes: 'x'.repeat(MAX_CLASSES_LENGTH + 1) } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, visualSelectorId: '' } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, visualSelectorId: 'a\nb' } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, visualSelectorId: 'x'.repeat(MAX_SELECTOR_ID_LENGTH + 1) } })).toBe(false);
    expect(isUpdateClassesMessage({ type: 'update-classes', data: { ...base, visualSelectorId: 42 } })).toBe(false);
  });

  it('checks update-content for a bounded string', () => {
    expect(isUpdateContentMessage({ type: 'update-content', data: { visualSelectorId: ID, content: '' } })).toBe(true);
    expect(isUpdateContentMessage({ type: 'update-content', data: { visualSelectorId: ID, content: 'x'.repeat(MAX_CONTENT_LENGTH) } })).toBe(true);
    expect(isUpdateContentMessage({ type: 'update-content', data: { visualSelectorId: ID, content: 'x'.repeat(MAX_CONTENT_LENGTH + 1) } })).toBe(false);
    expect(isUpdateContentMessage({ type: 'update-content', data: { visualSelectorId: ID, content: { html: '<b>x</b>' } } })).toBe(false);
    expect(isUpdateContentMessage({ type: 'update-content', data: { content: 'x' } })).toBe(false);
  });

  it('accepts payload-less messages with no data, null or an object, and nothing else', () => {
    for (const guard of [isUnselectElementMessage, isRefreshPageMessage]) {
      const type = guard === isRefreshPageMessage ? 'refresh-page' : 'unselect-element';
      expect(guard({ type })).toBe(true);
      expect(guard({ type, data: null })).toBe(true);
      expect(guard({ type, data: { anything: 1 } })).toBe(true);
      expect(guard({ type, data: 'now' })).toBe(false);
      expect(guard({ type, data: [] })).toBe(false);
    }
  });

  it('checks request-element-position for an optional id', () => {
    expect(isRequestElementPositionMessage({ type: 'request-element-position' })).toBe(true);
    expect(isRequestElementPositionMessage({ type: 'request-element-position', data: {} })).toBe(true);
    expect(isRequestElementPositionMessage({ type: 'request-element-position', data: { visualSelectorId: ID } })).toBe(true);
    expect(isRequestElementPositionMessage({ type: 'request-element-position', data: { visualSelectorId: 7 } })).toBe(false);
    expect(isRequestElementPositionMessage({ type: 'request-element-position', data: 'x' })).toBe(false);
  });

  it('checks the drag and dropdown states for booleans', () => {
    expect(isPopoverDragStateMessage({ type: 'popover-drag-state', data: { isDragging: true } })).toBe(true);
    expect(isPopoverDragStateMessage({ type: 'popover-drag-state', data: { isDragging: null } })).toBe(false);
    expect(isDropdownStateMessage({ type: 'dropdown-state', data: { isOpen: false } })).toBe(true);
    expect(isDropdownStateMessage({ type: 'dropdown-state', data: {} })).toBe(false);
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
    expect(parsed).toEqual({ type: 'update-classes', data: { visualSelectorId: ID, classes: 'p-4', replace: true } });
    expect(parsed).not.toBe(raw);
  });

  it('normalises optional fields', () => {
    expect(parseIncomingMessage({ type: 'update-classes', data: { visualSelectorId: ID, classes: 'p-4' } })).toEqual({
      type: 'update-classes',
      data: { visualSelectorId: ID, classes: 'p-4', replace: false },
    });
    expect(parseIncomingMessage({ type: 'request-element-position' })).toEqual({
      type: 'request-element-position',
      data: { visualSelectorId: null },
    });
    expect(parseIncomingMessage({ type: 'refresh-page', data: { reason: 'x' } })).toEqual({ type: 'refresh-page' });
  });

  it('ignores an own __proto__ key instead of following it', () => {
    const raw = JSON.parse('{"type":"toggle-visual-edit-mode","data":{"enabled":true,"__proto__":{"polluted":true}}}');
    const parsed = parseIncomingMessage(raw);
    expect(parsed).toEqual({ type: 'toggle-visual-edit-mode', data: { enabled: true } });
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
      tagName: 'h1',
      classes: 'c'.repeat(MAX_CLASSES_LENGTH + 10),
      visualSelectorId: ID,
      content: 't'.repeat(MAX_CONTENT_LENGTH + 10),
      dataSourceLocation: ID,
      isDynamicContent: false,
      position,
    });
    expect(message.type).toBe('element-selected');
    expect(message.classes).toHaveLength(MAX_CLASSES_LENGTH);
    expect(message.content).toHaveLength(MAX_CONTENT_LENGTH);
    expect(message.position).toBe(position);
  });
});
