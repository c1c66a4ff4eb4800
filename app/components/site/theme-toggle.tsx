import { useSyncExternalStore } from "react";
import { MoonIcon, SunIcon } from "~/components/ui/icons";
import { isDarkThemeApplied, storeTheme, subscribeToTheme } from "~/lib/theme";

/** The server cannot know the visitor's theme; the boot script has applied it before hydration corrects this. */
const renderedOnServerAsDark = () => false;

export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribeToTheme, isDarkThemeApplied, renderedOnServerAsDark);
  return (
    <button
      type="button"
      aria-pressed={dark}
      aria-label="Dark theme"
      title={dark ? "Switch to the light theme" : "Switch to the dark theme"}
      onClick={() => storeTheme(dark ? "light" : "dark")}
      className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      {/* CSS picks the icon, so it is right even before hydration. */}
      <MoonIcon className="size-5 dark:hidden" />
      <SunIcon className="hidden size-5 dark:block" />
    </button>
  );
}
