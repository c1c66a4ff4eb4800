import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Database } from "../db/schema.ts";

/**
 * PostgreSQL only: how app servers sharing one database tell each other which cached pages a
 * write made stale (docs/decisions/0005). SQLite has a single server process, so nothing to tell.
 */
export const CONTENT_CHANGES_CHANNEL = "inkwell_content_changes";

/** PostgreSQL refuses payloads of 8,000 bytes or more. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7_900;

export async function notifyContentChange(db: Kysely<Database>, payload: string): Promise<void> {
  await sql`select pg_notify(${CONTENT_CHANGES_CHANNEL}, ${payload})`.execute(db);
}

export interface ChannelListener {
  /** Ends the connection and stops reconnecting. */
  close: () => Promise<void>;
}

export interface ListenOptions {
  connectionString: string;
  onMessage: (payload: string) => void;
  /** Called after every (re)connection: notifications sent while disconnected are lost. */
  onListening: (reconnected: boolean) => void;
  onConnectionError: (error: unknown, retryInMs: number) => void;
  retryDelaysMs?: readonly number[];
}

const RETRY_DELAYS_MS = [250, 1_000, 5_000, 15_000] as const;

/**
 * Opens a dedicated connection (a pooled one would be handed to queries) that LISTENs on the
 * channel, and opens a new one whenever it breaks. Resolves once the first LISTEN is in place.
 */
export async function listenForContentChanges({
  connectionString,
  onMessage,
  onListening,
  onConnectionError,
  retryDelaysMs = RETRY_DELAYS_MS,
}: ListenOptions): Promise<ChannelListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (reconnected: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString, keepAlive: true });
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost || closed) return;
      lost = true;
      next.removeAllListeners("notification");
      void next.end().catch(() => {});
      scheduleReconnect(error);
    };
    next.on("error", onLost);
    next.on("end", () => onLost(new Error("the LISTEN connection ended")));
    next.on("notification", (message) => {
      if (message.channel === CONTENT_CHANGES_CHANNEL && message.payload !== undefined) onMessage(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${CONTENT_CHANGES_CHANNEL}`);
    } catch (error) {
      lost = true;
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    failures = 0;
    onListening(reconnected);
  };

  const scheduleReconnect = (error: unknown) => {
    client = undefined;
    const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)] ?? 1_000;
    failures += 1;
    onConnectionError(error, delay);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (!closed) connect(true).catch(scheduleReconnect);
    }, delay);
    retryTimer.unref();
  };

  await connect(false);
  return {
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
