/**
 * The beacon's address and size, apart from domain/analytics.ts so the page script, which every
 * page's bundle carries, imports no schema library with them.
 */

/** Neutral on purpose: filter lists block the usual `/api/view` or `/collect`. */
export const BEACON_PATH = "/hit";
/** The most a beacon's body may hold; the readers' script sends far less. */
export const BEACON_BODY_MAX = 2048;
