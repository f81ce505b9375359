import {
  loadTailwindRuntime,
  TAILWIND_RUNTIME_INPUT,
  TAILWIND_RUNTIME_PATH,
  tailwindRuntimeLoader,
} from '@/lib/frame/visual-edit/tailwind-runtime';

/** A fresh document per test: the loader remembers documents it already loaded into. */
function freshDocument(): Document {
  return document.implementation.createHTMLDocument('test');
}

const runtimeScripts = (doc: Document) => doc.querySelectorAll<HTMLScriptElement>('script[data-visual-edit-tailwind]');

it('adds one external script from our own origin and its input, and resolves when it has run', async () => {
  const doc = freshDocument();
  const loading = loadTailwindRuntime(doc);
  expect(loadTailwindRuntime(doc)).toBe(loading);

  const scripts = runtimeScripts(doc);
  expect(scripts).toHaveLength(1);
  expect(scripts[0]?.getAttribute('src')).toBe(TAILWIND_RUNTIME_PATH);
  expect(TAILWIND_RUNTIME_PATH.startsWith('/')).toBe(true);
  expect(scripts[0]?.textContent).toBe('');

  const input = doc.querySelector('style[type="text/tailwindcss"]');
  expect(input?.textContent).toBe(TAILWIND_RUNTIME_INPUT);
  // The input must precede the script, which reads it when it starts.
  expect(input?.compareDocumentPosition(scripts[0] as Node)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);

  scripts[0]?.dispatchEvent(new Event('load'));
  await expect(loading).resolves.toBeUndefined();
});

it('leaves out the preflight and keeps its theme below the site theme', () => {
  expect(TAILWIND_RUNTIME_INPUT).not.toContain('preflight');
  expect(TAILWIND_RUNTIME_INPUT).toContain('layer(theme.editor)');
});

it('rejects when the script fails, cleans up, and tries again next time', async () => {
  const doc = freshDocument();
  const failing = loadTailwindRuntime(doc, '/vendor/missing.js');
  runtimeScripts(doc)[0]?.dispatchEvent(new Event('error'));
  await expect(failing).rejects.toThrow('Could not load /vendor/missing.js');
  expect(doc.querySelectorAll('[data-visual-edit-tailwind]')).toHaveLength(0);

  const retry = loadTailwindRuntime(doc);
  expect(retry).not.toBe(failing);
  expect(runtimeScripts(doc)).toHaveLength(1);
});

describe('which builds load the runtime', () => {
  it('loads it in the editor preview build and in next dev, which serve it', () => {
    for (const [env, development] of [
      [{ sourceAnnotations: '1' }, false],
      [{}, true],
    ] as const) {
      const doc = freshDocument();
      void tailwindRuntimeLoader(env, development)(doc);
      expect(runtimeScripts(doc)).toHaveLength(1);
    }
  });

  it('asks for nothing in a production build, which does not ship it and whose CSP would refuse its styles', async () => {
    const doc = freshDocument();
    await expect(tailwindRuntimeLoader({}, false)(doc)).resolves.toBeUndefined();
    expect(doc.querySelectorAll('[data-visual-edit-tailwind]')).toHaveLength(0);
  });
});
