/** The note admins see on the 404 screen (below its sentence): the page may simply not have been built yet. */
export default function AdminNote() {
  return (
    <div
      role="note"
      className="mt-6 rounded-xl border border-sky-200 bg-sky-50 p-4 text-left text-sm leading-6 text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
    >
      <p className="font-medium">Admin Note</p>
      <p className="mt-1">
        This could mean that the AI hasn&apos;t implemented this page yet. Ask it to implement it in the chat.
      </p>
    </div>
  );
}
