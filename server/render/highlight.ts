import { createRequire } from "node:module";
import type { HighlighterCore, LanguageRegistration, ThemeRegistration } from "shiki/core";

// The languages blog posts mostly show; any other fence is kept as plain, escaped code.
const LANGUAGE_MODULES = [
  "bash",
  "css",
  "diff",
  "go",
  "html",
  "javascript",
  "json",
  "jsx",
  "markdown",
  "python",
  "rust",
  "sql",
  "tsx",
  "typescript",
  "yaml",
] as const;
const THEME_MODULES = ["github-light", "github-dark"] as const;

// Loaded on the first highlight, not when the server starts: the grammars take about 50 MB,
// which a server that only serves readers never needs (posts are rendered when saved), and
// the first save after a start waits about 0.3 s for them. require() of these ES modules is
// synchronous, as markdown-it's highlight hook must be; the JavaScript regex engine needs no
// WebAssembly.
const load = createRequire(import.meta.url);
let loaded: { highlighter: HighlighterCore; languages: Set<string> } | undefined;

function highlighter() {
  if (loaded) return loaded;
  const { createHighlighterCoreSync } = load("shiki/core") as typeof import("shiki/core");
  const { createJavaScriptRegexEngine } = load("shiki/engine/javascript") as typeof import("shiki/engine/javascript");
  const created = createHighlighterCoreSync({
    themes: THEME_MODULES.map((name) => (load(`shiki/themes/${name}.mjs`) as { default: ThemeRegistration }).default),
    langs: LANGUAGE_MODULES.map(
      (name) => (load(`shiki/langs/${name}.mjs`) as { default: LanguageRegistration[] }).default,
    ),
    engine: createJavaScriptRegexEngine(),
  });
  loaded = { highlighter: created, languages: new Set(created.getLoadedLanguages()) };
  return loaded;
}

/**
 * Highlighted code as `<pre class="shiki"><code>…` with both themes' colours as CSS variables
 * (`--shiki-light`, `--shiki-dark`); app/styles/site.css picks one by the `dark` class, so both themes
 * stay readable. Undefined when the language is unknown.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const lang = language.trim().toLowerCase();
  if (lang === "") return undefined;
  const { highlighter: shiki, languages } = highlighter();
  if (!languages.has(lang)) return undefined;
  return shiki.codeToHtml(code, {
    lang,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
  });
}
