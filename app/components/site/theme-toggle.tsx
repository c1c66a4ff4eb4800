import { useSyncExternalStore } from "react";
import { MoonIcon, SunIcon } from "~/components/ui/icons";
import { isDarkThemeApplied, subscribeToTheme } from "~/lib/page-script";

/** The server cannot know the visitor's theme; the page script sets `aria-pressed` before anyone sees it. */
const renderedOnServerAsDark = () => false;

/** The page script (app/lib/page-script.ts) switches the theme; React only keeps `aria-pressed` in step when it renders. */
export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribeToTheme, isDarkThemeApplied, renderedOnServerAsDark);
  return (
    <button
      type="button"
      data-theme-toggle
      aria-pressed={dark}
      aria-label="Dark theme"
      title="Switch between the light and dark themes"
      suppressHydrationWarning
      className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      {/* CSS picks the icon, so it is right without any script. */}
      <MoonIcon className="size-5 dark:hidden" />
      <SunIcon className="hidden size-5 dark:block" />
    </button>
  );
}
