/**
 * The little a reader's page does in the browser, for pages that load no application
 * JavaScript (docs/decisions/0011) and for every other page alike: it runs inline in <head>,
 * before the body paints, and listens on `document`, so it serves markup rendered by the
 * server and by React the same way. Elements opt in with data attributes:
 *
 * - `data-theme-toggle` on a button: switches the theme (docs/spec.md §1, stored under `theme`);
 * - `data-cover-image` on an image: `data-broken` is set on it while it fails (docs/spec.md §8);
 * - `data-menu` on a <details>: Escape closes it;
 * - `data-history-back` on a link: goes back when there is somewhere to go back to;
 * - `data-pending-label` on a submit button: shown, disabled, while the browser posts its form;
 * - `data-demo-form` on a form with a `role="status"`: submitting only says that nothing was sent;
 * - `data-count-view` on <body>: the page sends one beacon to `beaconPath` once loaded (cookie-free
 *   analytics, docs/decisions/0016); an error panel's `data-error-status` makes it a not-found
 *   page's (404) or no beacon at all (any other error).
 *
 * `enhancePage` must stay self-contained (it is sent as its own source text): it reads only its arguments.
 */
import type { UIMatch } from "react-router";
import { BEACON_PATH } from "#domain/analytics-beacon.ts";

function enhancePage(themeKey: string, darkQuery: string, themeEvent: string, beaconPath: string): void {
  const root = document.documentElement;
  const media = window.matchMedia(darkQuery);

  const readStoredTheme = (): string | null => {
    try {
      return localStorage.getItem(themeKey);
    } catch {
      return null;
    }
  };
  // Where storage is disabled, a choice lasts for this page only.
  let choice = readStoredTheme();
  const applyTheme = (): void => {
    const dark = choice === "dark" || (choice !== "light" && media.matches);
    root.classList.toggle("dark", dark);
    for (const toggle of document.querySelectorAll("[data-theme-toggle]")) {
      toggle.setAttribute("aria-pressed", String(dark));
    }
    document.dispatchEvent(new Event(themeEvent));
  };

  applyTheme();
  media.addEventListener("change", applyTheme);
  window.addEventListener("storage", (event) => {
    if (event.key !== themeKey && event.key !== null) return;
    choice = readStoredTheme();
    applyTheme();
  });

  const enableDemoForms = (): void => {
    for (const button of document.querySelectorAll("[data-demo-form] button[type=submit]")) {
      button.removeAttribute("disabled");
    }
  };
  // Path, referrer and viewport width, nothing else; the server adds the time and what the
  // user agent says. Without JavaScript or sendBeacon the view is not counted.
  const sendBeacon = (): void => {
    if (!document.body?.hasAttribute("data-count-view") || typeof navigator.sendBeacon !== "function") return;
    const status = document.querySelector("[data-error-status]")?.getAttribute("data-error-status");
    if (status && status !== "404") return;
    const body: Record<string, string | number> = {
      p: (location.pathname + location.search).slice(0, 1024),
      r: document.referrer.slice(0, 1024),
      w: Math.round(window.innerWidth),
    };
    if (status) body.k = "nf";
    navigator.sendBeacon(beaconPath, JSON.stringify(body));
  };
  document.addEventListener("DOMContentLoaded", () => {
    applyTheme();
    enableDemoForms();
    sendBeacon();
  });

  // Images fail before, during or after this script; error and load events do not bubble, but capture sees them all.
  const markImage = (event: Event): void => {
    const image = event.target;
    if (!(image instanceof HTMLImageElement)) return;
    if (image.hasAttribute("data-cover-image")) image.toggleAttribute("data-broken", event.type === "error");
  };
  document.addEventListener("error", markImage, true);
  document.addEventListener("load", markImage, true);

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest("[data-theme-toggle]")) {
      choice = root.classList.contains("dark") ? "light" : "dark";
      try {
        localStorage.setItem(themeKey, choice);
      } catch {
        // The choice still applies to this page.
      }
      applyTheme();
      return;
    }
    if (target?.closest("a[data-history-back]") && window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !(event.target instanceof Element)) return;
    const menu = event.target.closest("details[data-menu]");
    if (!(menu instanceof HTMLDetailsElement) || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary")?.focus();
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.hasAttribute("data-demo-form")) {
      event.preventDefault();
      const status = form.querySelector("[role=status]");
      if (status) status.textContent = form.dataset.demoMessage ?? "";
      return;
    }
    // After every other listener: a page run by React submits by itself and says so itself.
    setTimeout(() => {
      if (event.defaultPrevented) return;
      for (const button of form.querySelectorAll<HTMLButtonElement>("button[data-pending-label]")) {
        button.disabled = true;
        button.textContent = button.dataset.pendingLabel ?? button.textContent;
      }
    });
  });
}

/** Writers' pages among the readers' routes, never counted: signing in, invitations, setup, previews. */
const UNCOUNTED_ROUTES = new Set([
  "routes/site/login",
  "routes/site/login-code",
  "routes/site/invite",
  "routes/site/preview",
  "routes/admin/setup",
]);

/** Whether a page sends the beacon: a reader's page (under the site's layout) while counting is on. */
export function countsViews(matches: UIMatch[], analyticsOn: boolean): boolean {
  const page = matches.at(-1)?.id;
  return analyticsOn && matches.some((match) => match.id === "routes/site/layout") && !UNCOUNTED_ROUTES.has(page ?? "");
}

const THEME_STORAGE_KEY = "theme";
/** Dispatched on `document` whenever the applied theme may have changed. */
const THEME_CHANGE_EVENT = "inkwell:theme";

export const pageScript = `(${enhancePage.toString()})(${[
  THEME_STORAGE_KEY,
  "(prefers-color-scheme: dark)",
  THEME_CHANGE_EVENT,
  BEACON_PATH,
]
  .map((value) => JSON.stringify(value))
  .join(",")});`;

/** Whether the page shows the dark theme right now (the page script has already decided). */
export function isDarkThemeApplied(): boolean {
  return document.documentElement.classList.contains("dark");
}

export function subscribeToTheme(callback: () => void): () => void {
  document.addEventListener(THEME_CHANGE_EVENT, callback);
  return () => document.removeEventListener(THEME_CHANGE_EVENT, callback);
}
