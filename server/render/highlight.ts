import { createHighlighterCoreSync } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import bash from "shiki/langs/bash.mjs";
import css from "shiki/langs/css.mjs";
import diff from "shiki/langs/diff.mjs";
import go from "shiki/langs/go.mjs";
import html from "shiki/langs/html.mjs";
import javascript from "shiki/langs/javascript.mjs";
import json from "shiki/langs/json.mjs";
import jsx from "shiki/langs/jsx.mjs";
import markdown from "shiki/langs/markdown.mjs";
import python from "shiki/langs/python.mjs";
import rust from "shiki/langs/rust.mjs";
import sql from "shiki/langs/sql.mjs";
import tsx from "shiki/langs/tsx.mjs";
import typescript from "shiki/langs/typescript.mjs";
import yaml from "shiki/langs/yaml.mjs";
import githubDark from "shiki/themes/github-dark.mjs";
import githubLight from "shiki/themes/github-light.mjs";

// Synchronous and without WebAssembly, so it is ready when the module loads (nothing lazy at
// the first request) and markdown-it's synchronous highlight hook can call it. The languages
// are the ones blog posts mostly show; any other fence is kept as plain, escaped code.
const highlighter = createHighlighterCoreSync({
  themes: [githubLight, githubDark],
  langs: [bash, css, diff, go, html, javascript, json, jsx, markdown, python, rust, sql, tsx, typescript, yaml],
  engine: createJavaScriptRegexEngine(),
});

const LANGUAGES = new Set(highlighter.getLoadedLanguages());

/**
 * Highlighted code as `<pre class="shiki"><code>…` with both themes' colours as CSS variables
 * (`--shiki-light`, `--shiki-dark`); app.css picks one by the `dark` class, so both themes
 * stay readable. Undefined when the language is unknown.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const lang = language.trim().toLowerCase();
  if (!LANGUAGES.has(lang)) return undefined;
  return highlighter.codeToHtml(code, {
    lang,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
  });
}
