import type { IncomingMessage, OutgoingMessage } from '../messages';

export interface VisualEditAgentOptions {
  win: Window;
  post: (message: OutgoingMessage) => void;
  /** Origins font CSS and font files may come from (NEXT_PUBLIC_EDITOR_FONT_ORIGINS). */
  fontOrigins?: readonly string[];
  /** Injected in tests; by default the build's loader of Tailwind's browser build (tailwindRuntimeLoader). */
  loadTailwind?: (doc: Document) => Promise<void>;
  /** Injected in tests (jsdom cannot reload); `location.reload()` by default. */
  reload?: () => void;
  /** Reports a failure that is not the editor's business (e.g. the Tailwind runtime did not load). */
  onProblem?: (problem: string, cause?: unknown) => void;
}

export interface VisualEditAgent {
  handle(message: IncomingMessage): void;
  readonly enabled: boolean;
  readonly selectedId: string | null;
  stop(): void;
}
