import { createContext } from "react";

/**
 * The site's whole stylesheet, which the server writes into every page's head so the first
 * paint waits for no CSS request (Lighthouse: render-blocking requests). The browser keeps
 * it across client-side navigations, so the client never needs the text: there it is null.
 */
export const InlineStylesContext = createContext<string | null>(null);
