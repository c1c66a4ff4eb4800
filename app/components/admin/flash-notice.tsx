/**
 * The notice a redirect leaves (app/lib/flash.server.ts: "Post saved.", "Page deleted."), shown
 * once and announced politely; `className` places it on its screen.
 */
export function FlashNotice({ message, className }: { message: string | undefined; className: "mt-6" | "mb-6" }) {
  if (!message) return null;
  return (
    <p
      role="status"
      className={`${className} rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200`}
    >
      {message}
    </p>
  );
}
