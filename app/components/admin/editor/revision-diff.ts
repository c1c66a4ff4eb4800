import { diffWords } from "diff";
import { REVISION_KIND_LABELS, type PostRevision } from "#domain/revision.ts";

// Loaders only: kept apart from the view so the diff library stays out of the browser's bundle.

export type DiffPart = { text: string; change: "same" | "restored" | "removed" };

/** Word-level changes from the revision to the current text: what restoring would bring back or remove. */
export function wordDiff(from: string, to: string): DiffPart[] {
  return diffWords(from, to).map((part) => ({
    text: part.value,
    change: part.added ? "removed" : part.removed ? "restored" : "same",
  }));
}

type Text = Pick<PostRevision, "title" | "content" | "format">;

/** What a revision screen's loader hands its view: the revision, and how it differs from the current text. */
export function compareRevision(revision: PostRevision, current: Text) {
  return {
    revision: {
      number: revision.number,
      kind: REVISION_KIND_LABELS[revision.kind],
      savedBy: revision.savedBy,
      createdAt: revision.createdAt,
      format: revision.format,
    },
    // Read as "what the current text becomes if this revision is restored".
    title: wordDiff(revision.title, current.title),
    content: wordDiff(revision.content, current.content),
    unchanged:
      revision.title === current.title && revision.content === current.content && revision.format === current.format,
  };
}
