/**
 * Mount signals: the editor learns whether the page shows annotated (editable) content, as the
 * reference's mount observer tells it (`sandbox:onMounted` / `sandbox:onUnmounted`). We say it once
 * when the bridge starts (if there is such content) and then only when it changes, where the
 * reference repeats itself on every DOM mutation.
 */
import { mountSignal, type OutgoingMessage } from './messages';

const ANNOTATED = '[data-source-location], [data-dynamic-content]';

export function watchMountState(win: Window, post: (message: OutgoingMessage) => void): () => void {
  const doc = win.document;
  let mounted: boolean | null = null;
  const report = () => {
    const now = doc.body?.querySelector(ANNOTATED) != null;
    if (now === mounted) return;
    mounted = now;
    post(mountSignal(now));
  };
  if (doc.body?.querySelector(ANNOTATED)) report();
  const observer = new (win as Window & typeof globalThis).MutationObserver(report);
  if (doc.body) observer.observe(doc.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
