/**
 * The category and tag names an export file holds, as the import's category map reads them
 * (server/portability: a Ghost post's tags, a WordPress item's categories and tags), read in the
 * browser from the chosen file so the Tools page can offer one row per name. A reading only: the
 * import itself parses the file properly on the server.
 */

/** More rows than this would be a wall, not a form; the JSON map still takes any name. */
export const FOUND_CATEGORIES_MAX = 100;

const WORDPRESS_TERM = /<category\b[^>]*\bdomain="(?:category|post_tag)"[^>]*>([\s\S]*?)<\/category>/g;
const CDATA = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeXmlText(raw: string): string {
  const cdata = CDATA.exec(raw);
  if (cdata) return cdata[1] ?? "";
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

function ghostTagNames(parsed: unknown): string[] {
  if (typeof parsed !== "object" || parsed === null) return [];
  const root = parsed as { db?: { data?: { tags?: unknown } }[]; data?: { tags?: unknown } };
  const tags = root.db?.[0]?.data?.tags ?? root.data?.tags;
  if (!Array.isArray(tags)) return [];
  return tags
    .map((tag: unknown) => (typeof tag === "object" && tag !== null ? (tag as { name?: unknown }).name : undefined))
    .filter((name): name is string => typeof name === "string" && !name.startsWith("#"));
}

/** The distinct names (compared ignoring case, as the map is), in the file's order, at most FOUND_CATEGORIES_MAX. */
export function categoriesInExport(text: string): string[] {
  let names: string[];
  const start = text.trimStart();
  if (start.startsWith("{")) {
    try {
      names = ghostTagNames(JSON.parse(text));
    } catch {
      names = [];
    }
  } else {
    names = [...text.matchAll(WORDPRESS_TERM)].map((match) => decodeXmlText(match[1] ?? ""));
  }
  const seen = new Map<string, string>();
  for (const name of names.map((name) => name.trim())) {
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()].slice(0, FOUND_CATEGORIES_MAX);
}

/**
 * The rows of the category map's form (`mapFrom` names, `mapTo` categories; an empty choice
 * keeps the name), laid over the map typed as JSON: the rows were chosen, so a row wins.
 */
export function mergeCategoryRows(json: string, from: readonly string[], to: readonly string[]): string {
  const rows = from
    .map((name, index) => [name.trim(), (to[index] ?? "").trim()] as const)
    .filter(([name, category]) => name !== "" && category !== "");
  if (rows.length === 0) return json;
  let typed: unknown = {};
  if (json.trim()) {
    try {
      typed = JSON.parse(json);
    } catch {
      // Left as typed: the schema answers it with its own message.
      return json;
    }
  }
  if (typeof typed !== "object" || typed === null || Array.isArray(typed)) return json;
  return JSON.stringify({ ...typed, ...Object.fromEntries(rows) });
}
