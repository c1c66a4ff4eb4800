// Ghost exports built in a test, as Ghost 5 writes them: only the sections a test needs.
/** A Ghost 5 export of these posts (and settings rows), nothing else. */
export function ghostExport(posts: Record<string, unknown>[], settings: Record<string, unknown>[] = []): string {
  return JSON.stringify({
    db: [
      { meta: { exported_on: 1741168800000, version: "5.96.0" }, data: { posts, settings, tags: [], posts_tags: [] } },
    ],
  });
}

export function ghostPost(id: string, title: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    html: `<p>Body of ${title}.</p>`,
    type: "post",
    status: "published",
    visibility: "public",
    created_at: "2025-01-10T08:00:00.000Z",
    updated_at: "2025-01-10T08:00:00.000Z",
    published_at: "2025-01-10T08:00:00.000Z",
    ...fields,
  };
}
