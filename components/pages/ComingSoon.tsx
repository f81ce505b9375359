/**
 * The only public page for now: a German "coming soon" notice. A server component with no client
 * JavaScript of its own, so the copy is in the prerendered HTML and visible without scripts.
 */
export default function ComingSoon() {
  return (
    <main className="relative isolate flex min-h-dvh items-center justify-center overflow-hidden px-6 py-16 sm:px-10">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,_var(--color-teal-100),_transparent_60%)] dark:bg-[radial-gradient(ellipse_at_top,_var(--color-teal-950),_transparent_60%)]"
      />
      <section aria-labelledby="coming-soon-title" className="w-full max-w-3xl text-center">
        <p className="inline-flex items-center gap-2 rounded-full border border-teal-700/20 bg-white/70 px-4 py-1.5 text-sm font-medium tracking-wide text-teal-800 shadow-sm dark:border-teal-300/20 dark:bg-stone-900/70 dark:text-teal-200">
          <span aria-hidden="true" className="size-2 rounded-full bg-teal-600 dark:bg-teal-400" />
          Bald verfügbar
        </p>
        <h1
          id="coming-soon-title"
          className="mt-8 text-4xl font-semibold tracking-tight text-balance text-stone-900 sm:text-5xl lg:text-6xl dark:text-white"
        >
          Unsere neue Website ist fast startklar
        </h1>
        <p className="mx-auto mt-6 max-w-xl text-lg leading-8 text-pretty text-stone-700 sm:text-xl dark:text-stone-300">
          Wir legen gerade letzte Hand an und freuen uns darauf, Ihnen schon bald unseren neuen digitalen Auftritt zu
          präsentieren.
        </p>
        <p className="mt-10 text-base text-stone-600 dark:text-stone-400">
          Schauen Sie bald wieder vorbei – es lohnt sich.
        </p>
      </section>
    </main>
  );
}
