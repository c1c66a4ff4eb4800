import type { Kysely, Transaction } from "kysely";
import { mediaHashesIn } from "#domain/media.ts";
import { isPublicAt, type Post } from "#domain/post.ts";
import type { Database } from "../db/schema.ts";
import { guardDatabase } from "../errors.ts";
import {
  findPostsDueForEmail,
  findPostSends,
  markPostEmailed,
  type SendProgress,
} from "../repositories/email-outbox.ts";
import { findMediaByHashes } from "../repositories/media.ts";
import { findPostById } from "../repositories/posts.ts";
import { describeMedia } from "./media.ts";
import { composePostEmail, type EmailSite } from "./newsletter-email.ts";
import type { Outbox } from "./newsletter-outbox.ts";

/**
 * A post emailed to its subscribers once in its life, when it first becomes public
 * (docs/decisions/0014-newsletter-outbox.md): at once by the save that publishes it, or at its
 * scheduled time by the tick of a worker. The send's unique `post_id` keeps two servers, or a
 * save and a tick, from making two sends; the post's `newsletter` state keeps it from a second
 * one after an edit, an unpublish or a republish.
 */
export function createPostNewsletter({
  db,
  now,
  outbox,
  readSite,
  emailOn,
}: {
  db: Kysely<Database>;
  now: () => Date;
  outbox: Outbox;
  readSite: () => Promise<EmailSite>;
  /** SMTP_URL is set: a save may ask for an email, and the editor offers it. */
  emailOn: boolean;
}) {
  /**
   * Composes the email from the post as it is now, queues it, and marks the post sent, in one
   * transaction: the send and the mark are kept together or not at all.
   */
  async function send(post: Post, site: EmailSite, trx: Transaction<Database>): Promise<Post> {
    // The uploads' sizes, from which the email picks each image's width (the stored body has none).
    const uploads = await guardDatabase(() =>
      findMediaByHashes(trx, mediaHashesIn(`${post.coverImage}\n${post.contentHtml}`)),
    );
    const images = new Map(uploads.map((record) => [record.hash, describeMedia(record)]));
    // Null when another server or an earlier tick made the send: marking it sent is all that is left.
    await outbox.enqueuePostSend({ postId: post.id, ...composePostEmail(post, site, images) }, trx);
    await guardDatabase(() => markPostEmailed(trx, post.id));
    return { ...post, newsletter: "sent" };
  }

  return {
    emailOn,

    /**
     * Before a save: what the save must do for its email, when the post wants one and is public
     * as soon as it is saved. `queue` runs inside the save's transaction, so the post, its audit
     * entry and its send commit together; `wake` after the commit. The site is read here, before
     * the transaction opens: on SQLite it holds the one connection, and a read beside it would wait.
     */
    async prepareSave(draft: Pick<Post, "newsletter" | "published" | "publishAt">): Promise<SaveEmail | undefined> {
      if (draft.newsletter !== "wanted" || !isPublicAt(draft, now())) return undefined;
      const site = await readSite();
      return { queue: (post, trx) => send(post, site, trx), wake: outbox.wake };
    },

    /** The worker's tick: queues the email of every wanted post whose scheduled time has come. */
    async sendDuePosts(): Promise<number> {
      const due = await guardDatabase(() => findPostsDueForEmail(db, now().toISOString()));
      if (due.length === 0) return 0;
      const site = await readSite();
      for (const id of due) {
        const post = await guardDatabase(() => findPostById(db, id));
        if (post) await guardDatabase(() => db.transaction().execute((trx) => send(post, site, trx)));
      }
      outbox.wake();
      return due.length;
    },

    /** Each post's send (sent / total, failures), for the editor and the posts list. */
    findSends(postIds: readonly string[]): Promise<Map<string, SendProgress>> {
      return guardDatabase(() => findPostSends(db, postIds));
    },

    /** Stops the post's send: what is not yet sent will not be. False when it was not going out. */
    async cancel(postId: string): Promise<boolean> {
      const send = (await guardDatabase(() => findPostSends(db, [postId]))).get(postId);
      return send !== undefined && (await outbox.cancel(send.id));
    },
  };
}

export type PostNewsletterService = ReturnType<typeof createPostNewsletter>;

/** A save's email: queued inside the save's transaction, and the worker woken once it commits. */
export interface SaveEmail {
  queue: (post: Post, trx: Transaction<Database>) => Promise<Post>;
  wake: () => void;
}
