export const THEME_STORAGE_KEY = "theme";
export type Theme = "light" | "dark";

const DARK_QUERY = "(prefers-color-scheme: dark)";

/**
 * Runs inline in <head> before the body paints, so a server-rendered page never
 * flashes the wrong theme: the stored choice wins, else the system preference.
 */
export const themeBootScript = `(function(){try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");var d=t==="dark"||(t!=="light"&&window.matchMedia("${DARK_QUERY}").matches);document.documentElement.classList.toggle("dark",d);}catch(e){}})();`;

function readStoredTheme(): Theme | null {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === "dark" || stored === "light" ? stored : null;
  } catch {
    return null;
  }
}

function applyTheme(): void {
  const stored = readStoredTheme();
  const dark = stored ? stored === "dark" : window.matchMedia(DARK_QUERY).matches;
  document.documentElement.classList.toggle("dark", dark);
}

const listeners = new Set<() => void>();

/** Whether the page shows the dark theme right now (the boot script has already decided). */
export function isDarkThemeApplied(): boolean {
  return document.documentElement.classList.contains("dark");
}

/** Remembers the visitor's choice and applies it. */
export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage can be disabled; the choice then lasts for this page only.
  }
  document.documentElement.classList.toggle("dark", theme === "dark");
  for (const listener of listeners) listener();
}

/**
 * Calls back whenever the applied theme may have changed: the visitor's choice, the same
 * choice made in another tab, or the system preference changing while nothing is stored.
 */
export function subscribeToTheme(callback: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  const reapply = () => {
    applyTheme();
    callback();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) reapply();
  };
  listeners.add(callback);
  media.addEventListener("change", reapply);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(callback);
    media.removeEventListener("change", reapply);
    window.removeEventListener("storage", onStorage);
  };
}
