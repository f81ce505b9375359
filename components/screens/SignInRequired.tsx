/**
 * Shown instead of another automatic login redirect when the last one did not end in a valid
 * session (see lib/auth/login-loop-guard.ts): the visitor decides whether to try again.
 */
export default function SignInRequired({ onSignIn }: { onSignIn: () => void }) {
  return (
    <main lang="en" className="flex min-h-dvh items-center justify-center px-6 py-16">
      <section
        aria-labelledby="sign-in-required-title"
        className="w-full max-w-md rounded-2xl border border-stone-200 bg-white p-8 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900"
      >
        <h1 id="sign-in-required-title" className="text-3xl font-semibold tracking-tight">
          Sign-in required
        </h1>
        <p className="mt-4 leading-7 text-stone-700 dark:text-stone-300">
          This application needs you to sign in, and the last sign-in did not complete. Your previous session has been
          cleared.
        </p>
        <button
          type="button"
          onClick={onSignIn}
          className="mt-8 inline-flex items-center justify-center rounded-lg bg-stone-900 px-5 py-2.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-stone-700 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300"
        >
          Sign in
        </button>
      </section>
    </main>
  );
}
