// What a post's editor and a page's share beside the save itself: autosaves, revisions and
// private preview links, each kind in its own tables (docs/decisions/0018-pages.md).
import type { Kysely } from "kysely";
import type { EditorDraft } from "#domain/editor.ts";
import { DomainError } from "#domain/errors.ts";
import type { PostRevision, PostRevisionSummary } from "#domain/revision.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as revisions from "./repositories/post-revisions.ts";
import * as previewTokens from "./repositories/preview-tokens.ts";
import type { Actor } from "../accounts/index.ts";
import { createToken, hashToken } from "../kernel/tokens.ts";

/** What the desk reads of the item being written: its last save. */
export interface SavedItem {
  id: string;
  title: string;
  content: string;
  format: string;
  updatedAt: string;
}

export interface WritersDeskDeps<Item extends SavedItem> {
  db: Kysely<Database>;
  now: () => Date;
  history: revisions.RevisionHistory;
  previews: previewTokens.PreviewTokens;
  /** The item by id, or its kind's not-found error. */
  requireItem: (id: string) => Promise<Item>;
}

export function createWritersDesk<Item extends SavedItem>({
  db,
  now,
  history,
  previews,
  requireItem,
}: WritersDeskDeps<Item>) {
  const timestamp = () => now().toISOString();
  return {
    /** Keeps what the writer is typing as a revision, without touching the item or publishing anything. */
    async autosave(id: string, draft: EditorDraft, writer: Actor & { email: string }): Promise<PostRevisionSummary> {
      await requireItem(id);
      return db.transaction().execute((trx) =>
        revisions.recordRevisionIn(history, trx, {
          ownerId: id,
          kind: "autosave",
          savedBy: writer.email,
          createdAt: timestamp(),
          ...draft,
        }),
      );
    },

    /** An autosave newer than the last save: what a closed tab or a crash left unsaved. */
    async findUnsavedDraft(id: string): Promise<PostRevision | undefined> {
      const saved = await requireItem(id);
      return revisions.findUnsavedAutosaveIn(history, db, saved);
    },

    listRevisions(id: string): Promise<PostRevisionSummary[]> {
      return revisions.listRevisionsIn(history, db, id);
    },

    async getRevision(id: string, revisionId: string): Promise<PostRevision> {
      const revision = await revisions.findRevisionIn(history, db, id, revisionId);
      if (!revision) throw new DomainError("REVISION_NOT_FOUND", "Revision not found");
      return revision;
    },

    /**
     * A secret link that shows the draft as readers will see it. Only its hash is stored, like a
     * session's, so the link is shown once, now.
     */
    async createPreviewLink(id: string): Promise<string> {
      await requireItem(id);
      const token = createToken();
      await previewTokens.insertPreviewToken(previews, db, {
        tokenHash: hashToken(token),
        ownerId: id,
        createdAt: timestamp(),
      });
      return token;
    },

    async revokePreviewLinks(id: string): Promise<void> {
      await previewTokens.deletePreviewTokens(previews, db, id);
    },

    /** When the item's live preview link was made, if it has one. */
    findPreviewLinkCreatedAt(id: string): Promise<string | undefined> {
      return previewTokens.findPreviewLinkCreatedAt(previews, db, id);
    },

    /** The id a preview link names; whether it may still show it is for the item's service to say. */
    findPreviewOwnerId(token: string): Promise<string | undefined> {
      return previewTokens.findPreviewOwnerId(previews, db, hashToken(token));
    },
  };
}
