import type { ReactNode } from "react";

/**
 * The notice a redirect leaves (app/lib/flash.server.ts: "Post saved.", "Page deleted."), shown
 * once and announced politely; `className` places it on its screen, and `action` is what the
 * writer may do next (the editor's "View post" after "Saved.").
 */
export function FlashNotice({
  message,
  className,
  action,
}: {
  message: string | undefined;
  className: "mt-6" | "mb-6";
  action?: ReactNode;
}) {
  if (!message) return null;
  return (
    <div
      role="status"
      className={`${className} flex flex-wrap items-baseline gap-x-3 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200`}
    >
      <p>{message}</p>
      {action}
    </div>
  );
}
