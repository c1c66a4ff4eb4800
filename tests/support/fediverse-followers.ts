import type { Kysely } from "kysely";
import type { Database } from "../../server/kernel/db/schema.ts";
import type { PeerActor } from "./fediverse-peer.ts";

/**
 * Makes the peer's actors accepted followers of the blog, 500 rows a statement, as if each had
 * followed: the durability test and the benchmark start from hundreds of followers, which real
 * Follows would take minutes to build. `sharedInbox: false` leaves the shared inboxes out, so
 * every follower is its own delivery.
 */
export async function insertFollowers(
  db: Kysely<Database>,
  actors: PeerActor[],
  { sharedInbox = true }: { sharedInbox?: boolean } = {},
): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < actors.length; start += 500) {
    await db
      .insertInto("fediverse_followers")
      .values(
        actors.slice(start, start + 500).map((actor, offset) => ({
          id: `follower-${start + offset}`,
          actor_url: actor.id.href,
          handle: actor.handle,
          server: new URL(actor.server).host,
          inbox_url: actor.inbox.href,
          shared_inbox_url: sharedInbox ? (actor.sharedInbox?.href ?? null) : null,
          follow_activity_id: `${actor.id.href}#follow/${start + offset}`,
          state: "accepted" as const,
          created_at: at,
        })),
      )
      .execute();
  }
}

/** `perServer` actors on each of the peer's servers: reader-0-0, reader-0-1, … reader-{server}-{n}. */
export function spreadActors(
  peer: { servers: string[]; actor: (identifier: string, server?: number) => PeerActor },
  perServer: number,
): PeerActor[] {
  return peer.servers.flatMap((_, server) =>
    Array.from({ length: perServer }, (_, index) => peer.actor(`reader-${server}-${index}`, server)),
  );
}
