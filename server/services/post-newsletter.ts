import type { Kysely } from "kysely";
import { isPublicAt, type Post } from "#domain/post.ts";
import type { Database } from "../db/schema.ts";
import { guardDatabase } from "../errors.ts";
import {
  findPostsDueForEmail,
  findPostSends,
  markPostEmailed,
  type SendProgress,
} from "../repositories/email-outbox.ts";
import { findPostById } from "../repositories/posts.ts";
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
  /** Composes the email from the post as it is now, queues it, and marks the post sent. */
  async function send(post: Post): Promise<void> {
    const email = composePostEmail(post, await readSite());
    // Null when another server or an earlier tick made the send: marking it sent is all that is left.
    await outbox.enqueuePostSend({ postId: post.id, ...email });
    await guardDatabase(() => markPostEmailed(db, post.id));
  }

  return {
    emailOn,

    /** After a save: a post that wants its email and is public now is queued before the save answers. */
    async afterSave(post: Post): Promise<Post> {
      if (post.newsletter !== "wanted" || !isPublicAt(post, now())) return post;
      await send(post);
      return { ...post, newsletter: "sent" };
    },

    /** The worker's tick: queues the email of every wanted post whose scheduled time has come. */
    async sendDuePosts(): Promise<number> {
      const due = await guardDatabase(() => findPostsDueForEmail(db, now().toISOString()));
      for (const id of due) {
        const post = await guardDatabase(() => findPostById(db, id));
        if (post) await send(post);
      }
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
