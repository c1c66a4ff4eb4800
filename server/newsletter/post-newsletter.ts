import type { Kysely, Transaction } from "kysely";
import { mediaHashesIn } from "#domain/media.ts";
import { isPublicAt, type Post, type PostDraft } from "#domain/post.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { SendProgress } from "./repositories/email-outbox.ts";
import { findPostsDueForEmail, findPostSends, markPostEmailed } from "./repositories/post-sends.ts";
import { describeMedia, findMediaByHashes } from "../media/index.ts";
import { findPostById, type PostLife, type SaveWork } from "../posts/index.ts";
import { composePostEmail, type EmailSite } from "./email.ts";
import type { Outbox } from "./outbox.ts";

/**
 * A post emailed to its subscribers once in its life, when it first becomes public
 * (docs/decisions/0014-newsletter-outbox.md): at once by the save that publishes it, or at its
 * scheduled time by the first server whose clock sees it come (`postLife`, server/posts/service.ts).
 * The send's unique `post_id` keeps two servers, or a save and a clock, from making two sends;
 * the post's `newsletter` state keeps it from a second one after an edit, an unpublish or a
 * republish.
 */
export function createPostNewsletter({
  db,
  now,
  outbox,
  readSite,
  email,
}: {
  db: Kysely<Database>;
  now: () => Date;
  outbox: Outbox;
  readSite: () => Promise<EmailSite>;
  /** Whether email is on (server/newsletter/email-server.ts): a save may ask for an email, and the editor offers it. */
  email: { isOn(): Promise<boolean>; isOnNow(): boolean };
}) {
  /**
   * Composes the email from the post as it is now, queues it, and marks the post sent, in one
   * transaction: the send and the mark are kept together or not at all.
   */
  async function send(post: Post, site: EmailSite, trx: Transaction<Database>): Promise<Post> {
    // The uploads' sizes, from which the email picks each image's width (the stored body has none).
    const uploads = await findMediaByHashes(trx, mediaHashesIn(`${post.coverImage}\n${post.contentHtml}`));
    const images = new Map(uploads.map((record) => [record.hash, describeMedia(record)]));
    // Null when another server or an earlier look made the send: marking it sent is all that is left.
    await outbox.enqueuePostSend({ postId: post.id, ...composePostEmail(post, site, images) }, trx);
    await markPostEmailed(trx, post.id);
    return { ...post, newsletter: "sent" };
  }

  /**
   * A save's email, when the post wants one and is public once saved: queued inside the save's
   * transaction, so the post, its audit entry and its send commit together, and the worker woken
   * after the commit. The site is read here, before the transaction opens.
   */
  async function emailWithSave(draft: PostDraft): Promise<SaveWork | undefined> {
    if (draft.newsletter !== "wanted" || !isPublicAt(draft, now())) return undefined;
    const site = await readSite();
    return { run: (post, trx) => send(post, site, trx), afterCommit: outbox.wake };
  }

  /** Queues the email of every wanted post whose scheduled time has come. */
  async function sendDuePosts(): Promise<number> {
    const due = await findPostsDueForEmail(db, now().toISOString());
    if (due.length === 0) return 0;
    const site = await readSite();
    for (const id of due) {
      const post = await findPostById(db, id);
      if (post) await db.transaction().execute((trx) => send(post, site, trx));
    }
    outbox.wake();
    return due.length;
  }

  /** What the newsletter does in a post's life (server/posts/service.ts). */
  const postLife: PostLife = {
    // Every look, not only at an arrival: a `wanted` post imported with its time passed is due too.
    becamePublic: { inSave: emailWithSave, byClock: sendDuePosts },
    // A scheduled post edited after its time came, before any server's clock queued its email.
    changedWhilePublic: { inSave: emailWithSave },
  };

  return {
    /** Email is on, as this server last read it (its settings worker reads every second). */
    get emailOn(): boolean {
      return email.isOnNow();
    },
    /** Email is on now: what the editor's loaders ask. */
    isEmailOn: (): Promise<boolean> => email.isOn(),
    postLife,
    sendDuePosts,

    /** Each post's send (sent / total, failures), for the editor and the posts list. */
    findSends(postIds: readonly string[]): Promise<Map<string, SendProgress>> {
      return findPostSends(db, postIds);
    },

    /** Stops the post's send: what is not yet sent will not be. False when it was not going out. */
    async cancel(postId: string): Promise<boolean> {
      const send = (await findPostSends(db, [postId])).get(postId);
      return send !== undefined && (await outbox.cancel(send.id));
    },
  };
}

export type PostNewsletterService = ReturnType<typeof createPostNewsletter>;
