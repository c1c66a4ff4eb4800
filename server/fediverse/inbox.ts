import { randomUUID } from "node:crypto";
import type { Federation, InboxContext } from "@fedify/fedify";
import {
  Accept,
  type Activity,
  type Actor,
  Announce,
  Create,
  Delete,
  Follow,
  isActor,
  Like,
  Note,
  Undo,
  Update,
} from "@fedify/vocab";
import type { FediverseService } from "./service.ts";

/** Where the blog's inboxes are (docs/decisions/0015-fediverse.md): its own, and the shared one. */
export const INBOX_PATH = "/ap/users/{identifier}/inbox";
export const SHARED_INBOX_PATH = "/ap/inbox";

export interface InboxDeps {
  fediverse: Pick<
    FediverseService,
    | "isBlocked"
    | "followFrom"
    | "refreshFollower"
    | "unfollowFrom"
    | "findFollowerByActor"
    | "findPublicPostId"
    | "findReplyTarget"
    | "recordReaction"
    | "undoReaction"
    | "receiveReply"
    | "removeReply"
  >;
  /** The blog actor's identifier in its URL ("blog"), which every activity here is addressed to. */
  identifier: string;
  /** A listener's failure, after which Fedify's queue tries the activity again. */
  onError?: (error: Error) => void;
}

/** "@alice@social.example": the name people know an account by, from its actor document. */
function handleOf(actor: Actor, id: URL): string {
  const username = actor.preferredUsername?.toString().trim();
  return username ? `@${username}@${id.host}` : id.href;
}

/** A Temporal instant from a remote document as a Date; undefined when it is absent. */
function toDate(instant: { epochMilliseconds: number } | null): Date | undefined {
  return instant ? new Date(instant.epochMilliseconds) : undefined;
}

/**
 * What the blog does with each activity its inboxes receive (issue 25). The inbox's door
 * (inbox-gate.ts) and then Fedify have checked the signature (an unsigned or forged request is
 * answered 401 and never reaches here) and that the actor's own document lists the signer's
 * key. Activities from blocked servers or
 * actors are dropped; a blocked account that followed is removed.
 */
export function createInboxListeners<TContextData>({ fediverse, identifier }: InboxDeps) {
  type Context = InboxContext<TContextData>;

  /** The activity's actor, unless the blocked list names it or its server. */
  async function allowedActor(activity: Activity): Promise<URL | undefined> {
    const actor = activity.actorId;
    if (!actor) return undefined;
    return (await fediverse.isBlocked(actor)) ? undefined : actor;
  }

  async function react(activity: Like | Announce, kind: "like" | "announce"): Promise<void> {
    const actor = await allowedActor(activity);
    if (!actor || !activity.id || !activity.objectId) return;
    const postId = await fediverse.findPublicPostId(activity.objectId);
    if (postId === undefined) return;
    await fediverse.recordReaction({ postId, kind, actorUrl: actor.href, activityId: activity.id.href });
  }

  /** A Create or Update of a note replying to one of the blog's public posts, or to a reply kept as a comment: a held comment. */
  async function reply(context: Context, activity: Create | Update, actorUrl: URL, note: unknown): Promise<void> {
    if (!(note instanceof Note) || !note.id || !note.replyTargetId) return;
    // Only the note's author may post it: a relayed note would otherwise put words in their mouth.
    if (note.attributionId?.href !== actorUrl.href) return;
    const target = await fediverse.findReplyTarget(note.replyTargetId);
    if (target === undefined) return;
    const actor = await activity.getActor(context);
    if (!actor?.id || actor.id.href !== actorUrl.href) return;
    await fediverse.receiveReply({
      ...target,
      noteUrl: note.id.href,
      actorUrl: actor.id.href,
      actorHandle: handleOf(actor, actor.id),
      authorName: actor.name?.toString() ?? null,
      contentHtml: note.content?.toString() ?? "",
      published: toDate(note.published),
    });
  }

  return {
    async follow(context: Context, follow: Follow): Promise<void> {
      const blog = context.getActorUri(identifier);
      if (!follow.id || !follow.actorId || follow.objectId?.href !== blog.href) return;
      if (!(await allowedActor(follow))) {
        await fediverse.unfollowFrom(follow.actorId.href);
        return;
      }
      const actor = await follow.getActor(context);
      if (!actor?.id || !actor.inboxId || actor.id.href !== follow.actorId.href) return;
      const follower = await fediverse.followFrom({
        actorUrl: actor.id.href,
        handle: handleOf(actor, actor.id),
        inboxUrl: actor.inboxId.href,
        sharedInboxUrl: actor.endpoints?.sharedInbox?.href ?? null,
        followActivityId: follow.id.href,
      });
      // A pending follow is answered when the owner decides (the Fediverse screen); one refused
      // (its inbox not a public address) is not answered at all.
      if (follower?.state !== "accepted") return;
      await context.sendActivity(
        { identifier },
        actor,
        new Accept({
          id: new URL(`${blog.href}#accepts/${randomUUID()}`),
          actor: blog,
          // The Follow by its id and parties only: what the follower's server matches the answer by.
          object: new Follow({ id: follow.id, actor: follow.actorId, object: blog }),
        }),
      );
    },

    /** Takes back a follow, a like or a boost; only the account that made it can. */
    async undo(context: Context, undo: Undo): Promise<void> {
      const actorUrl = undo.actorId;
      const objectId = undo.objectId;
      if (!actorUrl || !objectId) return;
      if (await fediverse.undoReaction({ activityId: objectId.href, actorUrl: actorUrl.href })) return;
      const follower = await fediverse.findFollowerByActor(actorUrl.href);
      if (follower && follower.followActivityId === objectId.href) {
        await fediverse.unfollowFrom(actorUrl.href);
        return;
      }
      // The undone activity's id was not one we kept: read what it was from the Undo itself.
      const object = await undo.getObject({
        documentLoader: context.documentLoader,
        contextLoader: context.contextLoader,
        suppressError: true,
      });
      if (!(object instanceof Follow || object instanceof Like || object instanceof Announce)) return;
      if (object.actorId?.href !== actorUrl.href) return;
      if (object instanceof Follow) {
        if (object.objectId?.href === context.getActorUri(identifier).href) await fediverse.unfollowFrom(actorUrl.href);
        return;
      }
      const postId = object.objectId && (await fediverse.findPublicPostId(object.objectId));
      if (!postId) return;
      const kind = object instanceof Like ? "like" : "announce";
      await fediverse.undoReaction({ postId, kind, actorUrl: actorUrl.href });
    },

    like: (_context: Context, like: Like) => react(like, "like"),
    announce: (_context: Context, announce: Announce) => react(announce, "announce"),
    async create(context: Context, create: Create): Promise<void> {
      const actorUrl = await allowedActor(create);
      if (actorUrl) await reply(context, create, actorUrl, await create.getObject(context));
    },

    /** An edited reply, or an account's new profile: a follower's handle and inboxes follow it. */
    async update(context: Context, update: Update): Promise<void> {
      const actorUrl = await allowedActor(update);
      if (!actorUrl) return;
      const object = await update.getObject(context);
      if (!isActor(object)) return reply(context, update, actorUrl, object);
      if (object.id?.href !== actorUrl.href || !object.inboxId) return;
      await fediverse.refreshFollower({
        actorUrl: actorUrl.href,
        handle: handleOf(object, object.id),
        inboxUrl: object.inboxId.href,
        sharedInboxUrl: object.endpoints?.sharedInbox?.href ?? null,
      });
    },

    /** A deleted note takes its comment with it; a deleted account stops following. */
    async delete(_context: Context, deletion: Delete): Promise<void> {
      const actorUrl = deletion.actorId;
      const objectId = deletion.objectId;
      if (!actorUrl || !objectId) return;
      if (objectId.href === actorUrl.href) await fediverse.unfollowFrom(actorUrl.href);
      else await fediverse.removeReply(objectId.href, actorUrl.href);
    },
  };
}

/**
 * Sets the blog's inbox listeners on its federation (server/fediverse/federation.ts calls this
 * once, at boot). The shared inbox fetches remote documents signed as the blog, as servers that
 * require signed fetches ask.
 */
export function registerInbox<TContextData>(federation: Federation<TContextData>, deps: InboxDeps): void {
  const listeners = createInboxListeners<TContextData>(deps);
  federation
    .setInboxListeners(INBOX_PATH, SHARED_INBOX_PATH)
    .setSharedKeyDispatcher(() => ({ identifier: deps.identifier }))
    .on(Follow, listeners.follow)
    .on(Undo, listeners.undo)
    .on(Like, listeners.like)
    .on(Announce, listeners.announce)
    .on(Create, listeners.create)
    .on(Update, listeners.update)
    .on(Delete, listeners.delete)
    .onError((_context, error) => deps.onError?.(error));
}
