import type { PostFormat } from "./post.ts";

/** One kept version of a post's title and body. */
export interface PostRevisionSummary {
  id: string;
  /** 1, 2, 3… in the order they were kept. */
  number: number;
  /** A save from the form, an autosave while typing, or a restore of an older revision. */
  kind: "save" | "autosave" | "restore";
  savedBy: string;
  title: string;
  format: PostFormat;
  createdAt: string;
}

export interface PostRevision extends PostRevisionSummary {
  content: string;
}

export const REVISION_KIND_LABELS: Record<PostRevisionSummary["kind"], string> = {
  save: "Saved",
  autosave: "Autosaved",
  restore: "Restored",
};
