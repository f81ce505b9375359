/**
 * The outlines drawn over hovered and selected elements.
 *
 * Overlays are separate nodes on top of the page rather than outlines on the elements themselves,
 * so the page's own styles and layout are never touched. They are `position: fixed` (an absolutely
 * positioned box whose containing block is the viewport): their coordinates are then the element's
 * viewport box, whatever `position` the page gives `<body>`; the agent re-syncs them on scroll.
 * All styling goes through the CSSOM (`element.style`), which a strict CSP allows, never through
 * style attributes or injected style sheets, and text is set with textContent only.
 */
import { OVERLAY_ATTRIBUTE } from './selection';

export const OVERLAY_Z_INDEX = '9999';
export const SELECTED_BORDER = '2px solid #2563EB';
export const HOVER_BORDER = '2px solid #95a5fc';
const HOVER_FILL = 'rgba(149, 165, 252, 0.12)';
const LABEL_HEIGHT_PX = 18;

type OverlayKind = 'hover' | 'selected';

function createOverlay(doc: Document, kind: OverlayKind, label: string | null): HTMLElement {
  const box = doc.createElement('div');
  box.setAttribute(OVERLAY_ATTRIBUTE, kind);
  box.setAttribute('aria-hidden', 'true');
  const { style } = box;
  style.position = 'fixed';
  style.pointerEvents = 'none';
  style.zIndex = OVERLAY_Z_INDEX;
  style.boxSizing = 'border-box';
  style.margin = '0';
  style.padding = '0';
  style.border = kind === 'selected' ? SELECTED_BORDER : HOVER_BORDER;
  style.background = kind === 'selected' ? 'transparent' : HOVER_FILL;
  style.borderRadius = '2px';
  if (label) {
    const tag = doc.createElement('div');
    tag.textContent = label;
    const tagStyle = tag.style;
    tagStyle.position = 'absolute';
    tagStyle.left = '-2px';
    tagStyle.height = `${LABEL_HEIGHT_PX}px`;
    tagStyle.minWidth = '24px';
    tagStyle.textAlign = 'center';
    tagStyle.padding = '0 8px';
    // As the reference agent: a solid label on the selection, a light one on the hovered element.
    tagStyle.background = kind === 'selected' ? '#2563EB' : '#DBEAFE';
    tagStyle.color = kind === 'selected' ? '#ffffff' : '#526cff';
    tagStyle.font = `${kind === 'selected' ? 500 : 400} 11px/18px ui-sans-serif, system-ui, sans-serif`;
    tagStyle.borderRadius = '2px';
    tagStyle.whiteSpace = 'nowrap';
    box.append(tag);
  }
  return box;
}

function place(box: HTMLElement, target: Element): void {
  const rect = target.getBoundingClientRect();
  const { style } = box;
  style.top = `${rect.top}px`;
  style.left = `${rect.left}px`;
  style.width = `${rect.width}px`;
  style.height = `${rect.height}px`;
  // Hidden targets (display: none, detached) get no outline.
  style.display = rect.width === 0 && rect.height === 0 ? 'none' : 'block';
  const label = box.firstElementChild as HTMLElement | null;
  // The label sits above the box, or inside it when the box touches the top of the viewport.
  if (label) label.style.top = rect.top >= LABEL_HEIGHT_PX ? `-${LABEL_HEIGHT_PX + 2}px` : '0';
}

/** One group of overlays (hover or selected) that follows a set of elements. */
class OverlayGroup {
  private boxes: HTMLElement[] = [];
  private targets: Element[] = [];
  private hidden = false;

  constructor(
    private readonly doc: Document,
    private readonly kind: OverlayKind,
  ) {}

  show(targets: Element[], label: string | null): void {
    this.clear();
    this.targets = targets;
    for (const target of targets) {
      const box = createOverlay(this.doc, this.kind, label);
      place(box, target);
      if (this.hidden) box.style.visibility = 'hidden';
      this.doc.body.append(box);
      this.boxes.push(box);
    }
  }

  /** Moves every overlay onto its element's current box. */
  sync(): void {
    this.boxes.forEach((box, index) => {
      const target = this.targets[index];
      if (target) place(box, target);
    });
  }

  /** The label of the first outline, if it has one (the layer menu opens from it). */
  firstLabel(): HTMLElement | null {
    return (this.boxes[0]?.firstElementChild as HTMLElement | null | undefined) ?? null;
  }

  /** Hides the outlines while keeping them in place (inline editing shows the caret instead). */
  setHidden(hidden: boolean): void {
    this.hidden = hidden;
    for (const box of this.boxes) box.style.visibility = hidden ? 'hidden' : '';
  }

  clear(): void {
    for (const box of this.boxes) box.remove();
    this.boxes = [];
    this.targets = [];
  }

  get count(): number {
    return this.boxes.length;
  }
}

export class OverlayLayer {
  readonly hover: OverlayGroup;
  readonly selected: OverlayGroup;

  constructor(doc: Document) {
    this.hover = new OverlayGroup(doc, 'hover');
    this.selected = new OverlayGroup(doc, 'selected');
  }

  sync(): void {
    this.hover.sync();
    this.selected.sync();
  }

  clear(): void {
    this.hover.clear();
    this.selected.clear();
  }
}
