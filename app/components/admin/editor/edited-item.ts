/** What the editor is editing: a post or a page, each with its own addresses under /admin. */
export interface EditedItem {
  kind: "post" | "page";
  id: string;
}

/** The editor's error page when the item is missing or cannot be read. */
export const EDITOR_LOAD_FAILED_MESSAGES = { post: "Failed to load post", page: "Failed to load page" } as const;

/** The addresses of the item's editor and of what it calls: autosave, preview links, revisions. */
export function editorPaths({ kind, id }: EditedItem) {
  const base = kind === "post" ? "/admin/posts" : "/admin/pages";
  const item = encodeURIComponent(id);
  return {
    edit: `${base}/edit/${item}`,
    autosave: `${base}/${item}/autosave`,
    previewLink: `${base}/${item}/preview-link`,
    revision: (revisionId: string) => `${base}/edit/${item}/revisions/${encodeURIComponent(revisionId)}`,
  };
}
