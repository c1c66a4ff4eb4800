import type { UIMatch } from "react-router";

/**
 * `export const handle = staticPage` marks a reader's page that is complete as the server's
 * HTML: browsers get the page script and no application JavaScript for it (docs/decisions/0011).
 */
export const staticPage = { hydrate: false } as const;

/** Whether the page that matched loads React in the browser: its own route decides. */
export function pageHydrates(matches: UIMatch[]): boolean {
  const handle = matches.at(-1)?.handle as { hydrate?: boolean } | undefined;
  return handle?.hydrate !== false;
}
