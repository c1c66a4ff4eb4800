import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./db/schema.ts";
import type { Logger } from "./logger.ts";
import {
  type ChannelListener,
  listenForContentChanges,
  NOTIFY_PAYLOAD_MAX_BYTES,
  notifyContentChange,
} from "./repositories/content-change-channel.ts";
import type { ContentChanges, ContentTag } from "./content-changes.ts";

/** What a stale-page holder (the page cache) must offer. */
export interface InvalidationTarget {
  invalidate: (tags: readonly string[]) => void;
  clear: () => void;
}

interface Message {
  /** The server that made the change; it has already invalidated its own pages. */
  from: string;
  /** null: too many tags for one notification, drop everything. */
  tags: ContentTag[] | null;
}

export interface ContentChangeRelay {
  close: () => Promise<void>;
}

/**
 * Several app servers on one PostgreSQL database: every change announced here is sent to the
 * others with NOTIFY, and every change they announce invalidates the pages cached here.
 * After a lost connection the whole cache goes, since notifications were missed meanwhile.
 */
export async function startContentChangeRelay({
  db,
  connectionString,
  changes,
  target,
  logger,
}: {
  db: Kysely<Database>;
  connectionString: string;
  changes: ContentChanges;
  target: InvalidationTarget;
  logger: Logger;
}): Promise<ContentChangeRelay> {
  const serverId = randomBytes(9).toString("base64url");
  const listener: ChannelListener = await listenForContentChanges({
    connectionString,
    onMessage: (payload) => {
      const message = parseMessage(payload);
      if (!message) {
        logger.warn(
          { payload: payload.slice(0, 200) },
          "unreadable content-change notification; clearing the page cache",
        );
        target.clear();
        return;
      }
      if (message.from === serverId) return;
      if (message.tags === null) target.clear();
      else target.invalidate(message.tags);
    },
    onListening: (reconnected) => {
      if (!reconnected) return;
      target.clear();
      logger.info("listening for content changes again; page cache cleared");
    },
    onConnectionError: (error, retryInMs) =>
      logger.error({ err: error, retryInMs }, "content-change LISTEN connection lost; reconnecting"),
  });

  const unsubscribe = changes.subscribe((tags) => {
    notifyContentChange(db, encodeMessage(serverId, tags)).catch((error: unknown) =>
      logger.error({ err: error, tags }, "could not tell other servers about a content change"),
    );
  });

  return {
    close: async () => {
      unsubscribe();
      await listener.close();
    },
  };
}

export function encodeMessage(from: string, tags: ContentTag[]): string {
  const payload = JSON.stringify({ from, tags } satisfies Message);
  return Buffer.byteLength(payload) <= NOTIFY_PAYLOAD_MAX_BYTES
    ? payload
    : JSON.stringify({ from, tags: null } satisfies Message);
}

function parseMessage(payload: string): Message | undefined {
  try {
    const value = JSON.parse(payload) as unknown;
    if (typeof value !== "object" || value === null) return undefined;
    const { from, tags } = value as Record<string, unknown>;
    if (typeof from !== "string") return undefined;
    if (tags === null) return { from, tags: null };
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) return undefined;
    return { from, tags: tags as ContentTag[] };
  } catch {
    return undefined;
  }
}
