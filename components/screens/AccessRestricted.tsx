/** Shown when the platform says the signed-in user is not registered for this app. */
export const ACCESS_RESTRICTED_MESSAGE =
  'You are not registered to use this application. Please contact the app administrator to request access.';

const SUGGESTIONS = [
  'Verify you are logged in with the correct account',
  'Contact the app administrator for access',
  'Try logging out and back in again',
] as const;

export default function AccessRestricted() {
  return (
    <main lang="en" className="flex min-h-dvh items-center justify-center px-6 py-16">
      <section
        aria-labelledby="access-restricted-title"
        className="w-full max-w-md rounded-2xl border border-stone-200 bg-white p-8 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900"
      >
        <div
          aria-hidden="true"
          className="mx-auto flex size-16 items-center justify-center rounded-full bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200"
        >
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="size-8">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </div>
        <h1 id="access-restricted-title" className="mt-6 text-3xl font-semibold tracking-tight">
          Access Restricted
        </h1>
        <p className="mt-4 leading-7 text-stone-700 dark:text-stone-300">{ACCESS_RESTRICTED_MESSAGE}</p>
        <div className="mt-6 rounded-xl bg-stone-100 p-4 text-left text-sm text-stone-700 dark:bg-stone-800 dark:text-stone-300">
          <p className="font-medium text-stone-900 dark:text-stone-100">If you believe this is an error, you can:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {SUGGESTIONS.map((suggestion) => (
              <li key={suggestion}>{suggestion}</li>
            ))}
          </ul>
        </div>
      </section>
    </main>
  );
}
