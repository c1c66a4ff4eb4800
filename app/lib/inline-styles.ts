import { createContext } from "react";

/**
 * The stylesheets the server writes into every page's head, so the first paint waits for no
 * CSS request (Lighthouse: render-blocking requests):
 * - `readers`: built from the readers' components only (app/reader.css), for the pages that
 *   load no JavaScript; a link from them loads a whole new page with its own styles;
 * - `everything`: the whole site (app/app.css), for pages that hydrate. The browser keeps it
 *   across their client-side navigations, so the client never needs the text: there it is null.
 */
export const InlineStylesContext = createContext<{ readers: string; everything: string } | null>(null);
