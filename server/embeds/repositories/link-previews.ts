// The blog's copy of other pages' Open Graph data (migration 0040).
import type { LinkPreview } from "../../render/index.ts";
import type { Db } from "../../kernel/rows.ts";

/** A stored row: a preview, or the failure that left the URL a plain link. */
export interface StoredPreview {
  preview?: LinkPreview;
  fetchedAt: string;
}

/** The stored rows for `urls`, one statement. */
export async function findPreviews(db: Db, urls: readonly string[]): Promise<Map<string, StoredPreview>> {
  const found = new Map<string, StoredPreview>();
  if (urls.length === 0) return found;
  const rows = await db.selectFrom("link_previews").selectAll().where("url", "in", urls).execute();
  for (const row of rows)
    found.set(row.url, {
      fetchedAt: row.fetched_at,
      preview:
        row.title === null
          ? undefined
          : { url: row.url, title: row.title, description: row.description, siteName: row.site_name },
    });
  return found;
}

/** Stores what a fetch gave (a preview, or the reason there is none), replacing an older row; one statement. */
export async function savePreview(
  db: Db,
  url: string,
  result: { preview: Omit<LinkPreview, "url"> } | { failure: string },
  at: string,
): Promise<void> {
  const row =
    "preview" in result
      ? {
          title: result.preview.title,
          description: result.preview.description,
          site_name: result.preview.siteName,
          failure: null,
        }
      : { title: null, description: "", site_name: "", failure: result.failure.slice(0, 300) };
  await db
    .insertInto("link_previews")
    .values({ url, ...row, fetched_at: at })
    .onConflict((conflict) => conflict.column("url").doUpdateSet({ ...row, fetched_at: at }))
    .execute();
}
