// Apart from the settings schema (site-settings.ts): every public page shows these, and the
// schema would bring zod into every page's JavaScript.
export const DEFAULT_SITE_TITLE = "Inkwell";
export const DEFAULT_SITE_DESCRIPTION = "Notes on development, technology, design and business from a personal blog.";
export const DEFAULT_FOOTER_TEXT =
  "A personal blog about building for the web: code, tools, design and the business around them.";
// The home page's welcome block as the product first wrote it; the writer's own words replace them in Settings.
export const DEFAULT_HOME_HEADLINE = "Notes on building for the web, written to be read slowly";
export const DEFAULT_HOME_INTRODUCTION =
  "Practical essays on development, technology, design and the business of working independently.";
