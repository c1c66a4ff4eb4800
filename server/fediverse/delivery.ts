import type { Context } from "@fedify/fedify";
import { Article, Delete, PUBLIC_COLLECTION, Tombstone, Update } from "@fedify/vocab";
import type { Kysely } from "kysely";
import type { Post } from "#domain/post.ts";
import type { Database } from "../kernel/db/schema.ts";
import {
  claimSend,
  type DueAnnouncement,
  listDueAnnouncements,
  listDueRetractions,
  listSweepWindow,
  undoClaim,
} from "./repositories/fediverse-posts.ts";
import { BLOG_ACTOR, createActivityFor, instant, toArticle } from "./articles.ts";

/** How many posts one sweep looks at; the next sweep takes the rest. */
const SWEEP_BATCH = 50;

/**
 * How far back a sweep looks: posts saved or made public in the last day. A post that shows up
 * public longer after it became so (one imported with its old dates; every post already public
 * when migration 0018 ran is recorded as sent) gets no Create: followers get new posts, not a
 * flood of old ones. A change the sweeps miss for a whole day (every server down) is not sent.
 */
export const SWEEP_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface DeliveryDeps {
  db: Kysely<Database>;
  siteUrl: string;
  now: () => Date;
  /** A Fedify context for sending, with no request behind it. */
  context: () => Context<void>;
  findPublicPost: (id: string) => Promise<Post | undefined>;
}

export interface SweepReport {
  created: number;
  updated: number;
  deleted: number;
  /** Recorded without sending (SWEEP_WINDOW_MS), or claimed first by another server. */
  skipped: number;
}

/**
 * Compares what is public with what the fediverse was told (`fediverse_posts`) and queues the
 * difference: Create for a post that became public (at once or at its scheduled time), Update for
 * an edit, Delete with a Tombstone for a post unpublished or deleted. Each change is claimed by a
 * conditional update before it is queued, so several servers sweeping at once send it once; the
 * queue (Fedify's fan-out on our MessageQueue) then reaches every follower's shared inbox.
 */
export async function sweepDeliveries(deps: DeliveryDeps): Promise<SweepReport> {
  const report: SweepReport = { created: 0, updated: 0, deleted: 0, skipped: 0 };
  const now = deps.now();
  const at = now.toISOString();
  const since = new Date(now.getTime() - SWEEP_WINDOW_MS).toISOString();
  const window = await listSweepWindow(deps.db, { at, since });
  for (const due of await listDueAnnouncements(deps.db, { at, window, limit: SWEEP_BATCH })) {
    const outcome = await announce(deps, due);
    report[outcome] += 1;
  }
  for (const due of await listDueRetractions(deps.db, { at, window, limit: SWEEP_BATCH })) {
    const sent = { sentVersion: due.sentVersion, createdVersion: due.createdVersion };
    const claim = {
      postId: due.postId,
      from: { state: "created" as const, ...sent },
      to: { state: "deleted" as const, ...sent },
    };
    if (!(await claimSend(deps.db, claim))) {
      report.skipped += 1;
      continue;
    }
    await sendOrUndo(deps, claim, (context) => deleteActivity(context, due.postId, deps.now()));
    report.deleted += 1;
  }
  return report;
}

async function announce(deps: DeliveryDeps, due: DueAnnouncement): Promise<keyof SweepReport> {
  const isUpdate = due.sent?.state === "created";
  const stale = due.sent === undefined && deps.now().getTime() - Date.parse(due.publicSince) > SWEEP_WINDOW_MS;
  // A Create is named by the version it sends (`createdVersion`); an Update keeps the name of the
  // Create before it; a post recorded without sending has no Create to name.
  const createdVersion = isUpdate ? (due.sent?.createdVersion ?? null) : stale ? null : due.version;
  const to = { state: "created" as const, sentVersion: due.version, createdVersion };
  const claim = { postId: due.postId, from: due.sent, to };
  if (stale) {
    await claimSend(deps.db, claim);
    return "skipped";
  }
  // Read before the claim, so a failure here leaves the change for the next sweep.
  const post = await deps.findPublicPost(due.postId);
  // Unpublished between the list and now: nothing to announce.
  if (!post) return "skipped";
  if (!(await claimSend(deps.db, claim))) return "skipped";
  await sendOrUndo(deps, claim, (context) =>
    isUpdate
      ? updateActivity(context, deps.siteUrl, post)
      : createActivityFor(context, deps.siteUrl, post, due.version),
  );
  return isUpdate ? "updated" : "created";
}

async function sendOrUndo(
  deps: DeliveryDeps,
  claim: Parameters<typeof claimSend>[1],
  activity: (context: Context<void>) => Create | Update | Delete,
): Promise<void> {
  const context = deps.context();
  const built = activity(context);
  try {
    // No ordering key: with one, Fedify queues the fan-out a row at a time. Create, Update and
    // Delete of a post are sweeps apart; a Delete that overtakes a retried Create leaves
    // Mastodon a tombstone that refuses the late Create.
    await context.sendActivity({ identifier: BLOG_ACTOR }, "followers", built, { preferSharedInbox: true });
  } catch (error) {
    await undoClaim(deps.db, claim);
    throw error;
  }
}

type Create = ReturnType<typeof createActivityFor>;

function postObjectUri(context: Context<void>, postId: string): URL {
  return context.getObjectUri(Article, { id: postId });
}

function updateActivity(context: Context<void>, siteUrl: string, post: Post): Update {
  const article = toArticle(context, siteUrl, post);
  return new Update({
    id: new URL(`${article.id?.href}#update/${Date.parse(post.updatedAt)}`),
    actor: context.getActorUri(BLOG_ACTOR),
    to: PUBLIC_COLLECTION,
    cc: context.getFollowersUri(BLOG_ACTOR),
    updated: instant(post.updatedAt),
    object: article,
  });
}

function deleteActivity(context: Context<void>, postId: string, at: Date): Delete {
  const id = postObjectUri(context, postId);
  return new Delete({
    id: new URL(`${id.href}#delete/${at.getTime()}`),
    actor: context.getActorUri(BLOG_ACTOR),
    to: PUBLIC_COLLECTION,
    cc: context.getFollowersUri(BLOG_ACTOR),
    object: new Tombstone({ id, deleted: instant(at.toISOString()) }),
  });
}
