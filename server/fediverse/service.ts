import { daysBefore } from "#domain/dashboard.ts";
import type { Kysely } from "kysely";
import {
  DEFAULT_FEDIVERSE_SETTINGS,
  type FediverseSettings,
  fediverseSettingsSchema,
  type Follower,
  type FollowerState,
  isBlockedBy,
  parseBlockedList,
  type PostFediverseCounts,
  type ReactionKind,
} from "#domain/fediverse.ts";
import { ADMIN_POSTS_PER_PAGE } from "#domain/pagination.ts";
import { postAddressIn } from "#domain/site-urls.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { SettingsStore } from "../kernel/settings-store.ts";
import { refuseAddressForm } from "../kernel/public-address.ts";
import * as repository from "./repositories/fediverse.ts";
import type { Actor, AuditLog } from "../accounts/index.ts";
import type { CommentService } from "../comments/index.ts";

export type { FollowerDetail } from "./repositories/fediverse.ts";

/** Followers a page on the Fediverse screen. */
export const FOLLOWERS_PER_PAGE = ADMIN_POSTS_PER_PAGE;

/** Where the blog's own posts live as ActivityPub objects (docs/decisions/0015): `/ap/posts/{id}`. */
const POST_OBJECT_PATH = /^\/ap\/posts\/([A-Za-z0-9_-]{1,64})$/;

export interface FediverseServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  /** Replies become comments, and only the comment service writes comments. */
  comments: CommentService;
  /** SITE_URL: only addresses on it can name one of the blog's posts. */
  siteUrl: string;
  /**
   * FEDIVERSE_ALLOW_PRIVATE_ADDRESS, for test servers on 127.0.0.1: followers' inboxes may then
   * be private addresses. Off, an inbox that is not a public http(s) address is never stored.
   */
  allowPrivateAddress?: boolean;
  settingsStore: SettingsStore;
}

export function createFediverseService({
  db,
  now,
  audit,
  comments,
  siteUrl,
  allowPrivateAddress = false,
  settingsStore,
}: FediverseServiceDeps) {
  const storedSettings = settingsStore.define({
    key: "fediverse",
    schema: fediverseSettingsSchema,
    defaults: DEFAULT_FEDIVERSE_SETTINGS,
  });
  let blockedList: { of: FediverseSettings; entries: ReturnType<typeof parseBlockedList> } | undefined;
  const site = new URL(siteUrl);

  /** Whether the blog may send to this inbox (the queue checks again, with DNS, when it sends). */
  function isDeliverable(inboxUrl: string): boolean {
    return allowPrivateAddress || refuseAddressForm(inboxUrl) === undefined;
  }

  /** A shared inbox the blog may not send to is left out: deliveries then go to the personal inbox. */
  function deliverableSharedInbox(sharedInboxUrl: string | null): string | null {
    return sharedInboxUrl !== null && isDeliverable(sharedInboxUrl) ? sharedInboxUrl : null;
  }

  /** The blocked list as matched, parsed once for each settings value read. */
  function blockedEntries(settings: FediverseSettings) {
    if (blockedList?.of !== settings) blockedList = { of: settings, entries: parseBlockedList(settings.blocked) };
    return blockedList.entries;
  }

  async function listFollowers(options: { state?: FollowerState; page?: number } = {}) {
    const state = options.state ?? "accepted";
    const counts = await repository.countFollowers(db);
    const pageCount = Math.max(1, Math.ceil(counts[state] / FOLLOWERS_PER_PAGE));
    const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
    const rows = await repository.listFollowers(db, state, {
      limit: FOLLOWERS_PER_PAGE,
      offset: (page - 1) * FOLLOWERS_PER_PAGE,
    });
    const items: Follower[] = rows.map(({ id, actorUrl, handle, server, state, createdAt }) => ({
      id,
      actorUrl,
      handle,
      server,
      state,
      createdAt,
    }));
    return { items, total: counts[state], page, pageCount };
  }

  async function postCountsFor(postIds: readonly string[]): Promise<Map<string, PostFediverseCounts>> {
    const ids = [...new Set(postIds)];
    const [reactions, replies] = await Promise.all([
      repository.countReactions(db, ids),
      comments.countRemoteReplies(ids),
    ]);
    return new Map(
      ids.map((id) => [
        id,
        {
          likes: reactions.get(id)?.like ?? 0,
          boosts: reactions.get(id)?.announce ?? 0,
          replies: replies.get(id) ?? 0,
        },
      ]),
    );
  }

  /**
   * The id of the public post an ActivityPub object URL names: its object id (`/ap/posts/{id}`)
   * or its page (`/blog/{slug}`, a former slug too), on this site only. Drafts and scheduled
   * posts are never found.
   */
  async function findPublicPostId(objectUrl: URL): Promise<string | undefined> {
    if (objectUrl.origin !== site.origin) return undefined;
    const address = POST_OBJECT_PATH.exec(objectUrl.pathname)?.[1] ?? postAddressIn(objectUrl.pathname);
    if (address === undefined) return undefined;
    return repository.findPublicPostIdAt(db, address, now().toISOString());
  }

  return {
    /** The settings, read from the database at most once a second: cheap enough for every page and activity. */
    async settings(): Promise<FediverseSettings> {
      return storedSettings.read();
    },

    /** Saves the settings; followers the new blocked list names are removed at once. */
    async saveSettings(values: FediverseSettings, actor: Actor): Promise<void> {
      const before = await storedSettings.read();
      const blocked = blockedEntries(await storedSettings.save(values));
      if (blocked.length > 0) {
        const followers = await repository.listFollowerActors(db);
        const gone = followers.filter((follower) => isBlockedBy(blocked, new URL(follower.actorUrl)));
        await repository.deleteFollowers(
          db,
          gone.map((follower) => follower.id),
        );
      }
      const changed = (Object.keys(values) as (keyof FediverseSettings)[]).filter((key) => before[key] !== values[key]);
      await audit.record(actor, "settings-changed", changed.map((key) => `fediverse ${key}`).join(", "));
    },

    /**
     * Called on this server's save, and when this server sees another's (within a second); the
     * federation keeps the handle it answers with here.
     */
    onChange(listener: (settings: FediverseSettings) => void): () => void {
      return storedSettings.onChange(listener);
    },

    /** Whether the blocked list names this actor or its server. */
    async isBlocked(actorUrl: URL): Promise<boolean> {
      return isBlockedBy(blockedEntries(await storedSettings.read()), actorUrl);
    },

    /**
     * Records a Follow: accepted at once, or pending when the owner approves follows by hand.
     * Following again keeps the state the account already has. Undefined, with nothing stored and
     * nothing to answer, when the inbox is not a public http(s) address (docs/decisions/0015).
     */
    async followFrom(follow: {
      actorUrl: string;
      handle: string;
      inboxUrl: string;
      sharedInboxUrl: string | null;
      followActivityId: string | null;
    }): Promise<{ id: string; state: FollowerState } | undefined> {
      if (!isDeliverable(follow.inboxUrl)) return undefined;
      const settings = await storedSettings.read();
      return repository.upsertFollower(db, {
        ...follow,
        sharedInboxUrl: deliverableSharedInbox(follow.sharedInboxUrl),
        server: new URL(follow.actorUrl).host,
        state: settings.approveFollowsByHand ? "pending" : "accepted",
        createdAt: now().toISOString(),
      });
    },

    /**
     * A follower's profile changed (a new handle, a moved inbox): later deliveries and the list
     * follow it. False, with the row as it was, when they do not follow or the new inbox is not a
     * public http(s) address.
     */
    async refreshFollower(profile: {
      actorUrl: string;
      handle: string;
      inboxUrl: string;
      sharedInboxUrl: string | null;
    }): Promise<boolean> {
      const { actorUrl, handle, inboxUrl, sharedInboxUrl } = profile;
      if (!isDeliverable(inboxUrl)) return false;
      return repository.updateFollowerProfile(db, actorUrl, {
        handle,
        inboxUrl,
        sharedInboxUrl: deliverableSharedInbox(sharedInboxUrl),
      });
    },

    async unfollowFrom(actorUrl: string): Promise<boolean> {
      return repository.deleteFollowerByActor(db, actorUrl);
    },

    listFollowers,

    async findFollower(id: string) {
      return repository.findFollower(db, id);
    },

    async findFollowerByActor(actorUrl: string) {
      return repository.findFollowerByActor(db, actorUrl);
    },

    /** Removes a follower; hands back what it was, so a pending one can be sent its Reject. */
    async removeFollower(id: string) {
      return repository.deleteFollower(db, id);
    },

    /** Marks a pending follower accepted; the federation sends the Accept. */
    async approveFollower(id: string) {
      return repository.acceptFollower(db, id);
    },

    async countFollowers(): Promise<Record<FollowerState, number>> {
      return repository.countFollowers(db);
    },

    /** The dashboard's figure: accepted followers who followed in the last `days` days. */
    async countNewFollowers(days: number): Promise<number> {
      return repository.countFollowersSince(db, daysBefore(now(), days));
    },

    /** Accepted followers a page at a time, for the followers collection and delivery; `nextCursor` null at the end. */
    async followerInboxes({ cursor, limit }: { cursor: string | null; limit: number }) {
      const rows = await repository.listFollowerInboxes(db, cursor, limit + 1);
      const items = rows.slice(0, limit);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    },

    findPublicPostId,

    /** A like or a boost, once per post, kind and actor; false when it was already counted. */
    async recordReaction(reaction: { postId: string; kind: ReactionKind; actorUrl: string; activityId: string }) {
      return repository.insertReaction(db, { ...reaction, createdAt: now().toISOString() });
    },

    /** Takes back a like or a boost, named by its activity or by what it was; only its actor can. */
    async undoReaction(
      reaction: { activityId: string; actorUrl: string } | { postId: string; kind: ReactionKind; actorUrl: string },
    ): Promise<boolean> {
      return repository.deleteReaction(db, reaction);
    },

    /**
     * What a note replies to here: a public post (by `findPublicPostId`), or a reply from the
     * fediverse kept as a comment, whose thread the note joins. Undefined for anything else.
     */
    async findReplyTarget(objectUrl: URL): Promise<{ postId: string; parentId?: string } | undefined> {
      const postId = await findPublicPostId(objectUrl);
      if (postId !== undefined) return { postId };
      const thread = await comments.findNoteThread(objectUrl.href);
      return thread && { postId: thread.postId, parentId: thread.threadId };
    },

    /** A reply to a post, or to a reply kept as a comment: a held comment with its author's handle and profile (the comment service decides). */
    async receiveReply(reply: {
      postId: string;
      parentId?: string;
      noteUrl: string;
      actorUrl: string;
      actorHandle: string;
      authorName: string | null;
      contentHtml: string;
      published?: Date;
    }) {
      return comments.receiveRemoteReply({
        postId: reply.postId,
        parentId: reply.parentId,
        noteUrl: reply.noteUrl,
        remoteAuthor: { handle: reply.actorHandle, url: reply.actorUrl },
        authorName: reply.authorName,
        contentHtml: reply.contentHtml,
        published: reply.published,
      });
    },

    /** The note was deleted by its author: so is the comment it became. */
    async removeReply(noteUrl: string, actorUrl: string): Promise<boolean> {
      return comments.removeRemoteReply(noteUrl, actorUrl);
    },

    async postCounts(postId: string): Promise<PostFediverseCounts> {
      return (await postCountsFor([postId])).get(postId) ?? { likes: 0, boosts: 0, replies: 0 };
    },

    postCountsFor,
  };
}

export type FediverseService = ReturnType<typeof createFediverseService>;
