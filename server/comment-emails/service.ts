import type { Kysely, Transaction } from "kysely";
import {
  type CommentEmailSettings,
  commentEmailSettingsSchema,
  DEFAULT_COMMENT_EMAIL_SETTINGS,
  REPLY_UNSUBSCRIBE_LINK_INVALID_MESSAGE,
} from "#domain/comment-emails.ts";
import { DomainError } from "#domain/errors.ts";
import { absoluteUrl, postPath } from "#domain/site-urls.ts";
import type { CommentLife, CommentMoment, CommentService } from "../comments/index.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import { inTransaction } from "../kernel/rows.ts";
import { periodicWorker, type Worker, type WorkerErrorReporter } from "../kernel/workers.ts";
import { type CommentReader, composeNoticeEmail, type EmailSite, type Outbox } from "../newsletter/index.ts";
import * as store from "./repositories/comment-emails.ts";
import { createAddressKeys } from "./sealed-address.ts";

const SETTINGS_KEY = "comment-emails";
/** How often each server asks whether the day's digest is due. */
const DIGEST_CHECK_MS = 60_000;
/** Comments a digest quotes; the rest are counted, with a link to the Comments screen. */
export const DIGEST_QUOTED_MAX = 50;
/**
 * Reply emails one address gets in 24 hours, over all its comments: far more than a lively thread
 * gives, few enough that nobody can fill a stranger's inbox by replying to comments left with
 * their address (docs/decisions/0024).
 */
export const REPLY_EMAILS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CommentEmailDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The server's secret (SESSION_SECRET or data/session-secret): keys the address hash, seal and links. */
  secret: string;
  siteUrl: string;
  /** Email is on (server/newsletter/email-server.ts): only then does the comment form ask for an address. */
  email: { isOn(): Promise<boolean>; isOnNow(): boolean };
  outbox: Outbox;
  comments: CommentService;
  settingsStore: SettingsStore;
  /** The blog's title (Settings) and its time zone, whose midnight starts a digest's day. */
  readSite: () => Promise<EmailSite & { timeZone: string }>;
  digestCheckMs?: number;
}

/**
 * Comment emails (docs/decisions/0024): the writer hears of each new comment, or of a day's in
 * one digest; a reader who left an address hears of replies to their comment. Every email goes
 * through the newsletter's outbox, queued in the transaction that stores the comment.
 */
export function createCommentEmails({
  db,
  now,
  secret,
  siteUrl,
  email,
  outbox,
  comments,
  settingsStore,
  readSite,
  digestCheckMs = DIGEST_CHECK_MS,
}: CommentEmailDeps) {
  const keys = createAddressKeys(secret);
  const settings = settingsStore.define<CommentEmailSettings>({
    key: SETTINGS_KEY,
    schema: commentEmailSettingsSchema,
    defaults: DEFAULT_COMMENT_EMAIL_SETTINGS,
  });
  const commentUrl = (comment: CommentMoment) =>
    absoluteUrl(siteUrl, `${postPath(comment.postSlug)}#comment-${comment.id}`);
  const moderationUrl = absoluteUrl(siteUrl, "/admin/comments?status=pending");
  const settingsUrl = absoluteUrl(siteUrl, "/admin/comments/settings");

  async function tellWriter(comment: CommentMoment, site: EmailSite, trx: Transaction<Database>): Promise<void> {
    const owner = await store.findOwnerAddress(trx);
    if (!owner) return;
    const held = comment.status !== "approved";
    const email = composeNoticeEmail(site, {
      subject: held ? `A comment awaits moderation on “${comment.postTitle}”` : `New comment on “${comment.postTitle}”`,
      lead: held
        ? `${comment.author} commented on “${comment.postTitle}”. It waits for your approval before anyone sees it.`
        : `${comment.author} commented on “${comment.postTitle}”.`,
      quotes: [{ heading: comment.author, text: comment.content }],
      action: held
        ? { href: moderationUrl, label: "Moderate comments" }
        : { href: commentUrl(comment), label: "Read it" },
      footerNote: `You get an email for every new comment. Change it in the comment settings: ${settingsUrl}`,
    });
    await outbox.enqueueSingle({ to: owner, ...email }, trx);
  }

  async function tellReader(reply: CommentMoment, site: EmailSite, trx: Transaction<Database>): Promise<void> {
    if (!reply.parentId) return;
    const found = await store.findReplyAddresses(trx, [reply.parentId, reply.id]);
    const parent = found.find((address) => address.commentId === reply.parentId);
    // Nobody is told of their own reply.
    if (!parent || found.some((address) => address.commentId === reply.id && address.emailHash === parent.emailHash)) {
      return;
    }
    const at = now();
    const told = await store.countRepliesTold(trx, parent.emailHash, new Date(at.getTime() - DAY_MS).toISOString());
    if (told >= REPLY_EMAILS_PER_DAY) return;
    if (
      !(await store.claimReplyNotice(trx, { replyId: reply.id, emailHash: parent.emailHash, at: at.toISOString() }))
    ) {
      return;
    }
    const [parentComment] = await comments.listCommentMoments([reply.parentId], trx);
    const email = composeNoticeEmail(site, {
      subject: `${reply.author} replied to your comment on “${reply.postTitle}”`,
      lead: `${reply.author} replied to your comment on “${reply.postTitle}”.`,
      quotes: [
        ...(parentComment ? [{ heading: "Your comment", text: parentComment.content }] : []),
        { heading: `${reply.author}’s reply`, text: reply.content },
      ],
      action: { href: commentUrl(reply), label: "Read the reply" },
      footerNote: `You asked ${site.title} to tell you of replies to your comment.`,
      unsubscribeLabel: "Stop reply emails",
    });
    await outbox.enqueueToCommentReader({ commentId: reply.parentId, ...email }, trx);
  }

  const life: CommentLife = {
    async prepare() {
      // While email is off a comment's life sends nothing, and an address is not kept.
      // As this server last read it (every second), so a comment costs no statement more.
      if (!email.isOnNow()) return undefined;
      const [{ writerEmails }, site] = await Promise.all([settings.read(), readSite()]);
      return {
        async taken(comment, trx, { replyEmail }) {
          if (replyEmail) {
            await store.insertReplyAddress(trx, {
              commentId: comment.id,
              emailHash: keys.hash(replyEmail),
              emailSealed: keys.seal(replyEmail),
              at: now().toISOString(),
            });
          }
          // A writer's own comment (a reply from the admin) is no news to the writer.
          if (writerEmails === "each" && comment.authorUserId === null) await tellWriter(comment, site, trx);
        },
        async published(published, trx) {
          for (const reply of published) await tellReader(reply, site, trx);
        },
        afterCommit: outbox.wake,
      };
    },
  };

  /** The day `at` falls on in the site's time zone, as YYYY-MM-DD. */
  function dayOf(at: Date, timeZone: string): string {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
  }

  /**
   * Once per day (the site's), on whichever server claims the day's row first: the comments taken
   * since the last digest, in one email to the writer. The first day the digest is on only marks
   * where it starts: comments before it were emailed one by one. Nothing is sent for a quiet day.
   */
  async function sendDigestIfDue(): Promise<boolean> {
    if ((await settings.read()).writerEmails !== "digest" || !(await email.isOn())) return false;
    const at = now();
    const site = await readSite();
    const day = dayOf(at, site.timeZone);
    const sent = await inTransaction(db, async (trx) => {
      const { claimed, previousUntil } = await store.claimDigestDay(trx, { day, coveredUntil: at.toISOString() });
      if (!claimed || previousUntil === undefined) return false;
      const taken = await comments.listCommentsTakenBetween(new Date(previousUntil), at, DIGEST_QUOTED_MAX, trx);
      if (taken.total === 0) return false;
      const owner = await store.findOwnerAddress(trx);
      if (!owner) return false;
      const more = taken.total - taken.comments.length;
      const subject = `${taken.total} new ${taken.total === 1 ? "comment" : "comments"} on ${site.title}`;
      const email = composeNoticeEmail(site, {
        subject,
        lead: `Since the last digest: ${taken.total} ${taken.total === 1 ? "comment" : "comments"}${more > 0 ? `, the first ${taken.comments.length} below` : ""}.`,
        quotes: taken.comments.map((comment) => ({
          heading: `${comment.author} on “${comment.postTitle}”${comment.status === "approved" ? "" : " (awaits moderation)"}`,
          text: comment.content,
        })),
        action: { href: absoluteUrl(siteUrl, "/admin/comments"), label: "Open the Comments screen" },
        footerNote: `You get one digest a day of new comments. Change it in the comment settings: ${settingsUrl}`,
      });
      await outbox.enqueueSingle({ to: owner, ...email }, trx);
      return true;
    });
    if (sent) outbox.wake();
    return sent;
  }

  return {
    /** Registered in server/composition.ts; it sends nothing while email is off. */
    life,
    /** Whether email is on, so the comment form asks for an address and the writer may choose their emails. */
    isOpen: (): Promise<boolean> => email.isOn(),

    readSettings: (): Promise<CommentEmailSettings> => settings.read(),

    /**
     * Saves how the writer hears of new comments. Turning the digest off forgets where the last
     * one stopped, so turning it on again starts afresh rather than repeating what was emailed one by one.
     */
    async saveSettings(value: CommentEmailSettings): Promise<void> {
      const before = await settings.readFresh();
      await settings.save(value);
      if (before.writerEmails === "digest" && value.writerEmails !== "digest") await store.forgetDigests(db);
    },

    /** The readers of these comments who still want reply emails, their addresses unsealed, for the outbox. */
    async readCommentReaders(commentIds: string[]): Promise<Map<string, CommentReader>> {
      const readers = new Map<string, CommentReader>();
      for (const { commentId, emailSealed } of await store.findReplyAddresses(db, commentIds)) {
        // Sealed under another secret (SESSION_SECRET changed): the address is lost, the email dropped.
        const to = keys.unseal(emailSealed);
        if (!to) continue;
        readers.set(commentId, {
          to,
          unsubscribeUrl: absoluteUrl(
            siteUrl,
            `/unsubscribe/replies?token=${encodeURIComponent(keys.unsubscribeToken(commentId))}`,
          ),
        });
      }
      return readers;
    },

    /** Refuses a forged or damaged unsubscribe token (400) before a page offers its button. */
    checkUnsubscribeToken(token: string): void {
      if (!keys.readUnsubscribeToken(token)) {
        throw new DomainError("REPLY_UNSUBSCRIBE_LINK_INVALID", REPLY_UNSUBSCRIBE_LINK_INVALID_MESSAGE);
      }
    },

    /**
     * One-click unsubscribe: no reply email goes to that address again, for this comment or any
     * other, and every copy of it is deleted. Using the link again succeeds again.
     */
    async unsubscribe(token: string): Promise<void> {
      const commentId = keys.readUnsubscribeToken(token);
      if (!commentId) throw new DomainError("REPLY_UNSUBSCRIBE_LINK_INVALID", REPLY_UNSUBSCRIBE_LINK_INVALID_MESSAGE);
      await store.optOutAddressOf(db, commentId, now().toISOString());
    },

    sendDigestIfDue,

    /** Each server's digest check (server.ts starts it while email is on); the day's row decides who sends. */
    digestWorker(onError: WorkerErrorReporter): Worker {
      return periodicWorker({
        name: "comment digest",
        everyMs: digestCheckMs,
        run: sendDigestIfDue,
        onError,
        runAtStart: true,
      });
    },
  };
}

export type CommentEmails = ReturnType<typeof createCommentEmails>;
