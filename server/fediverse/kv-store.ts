import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { Kysely } from "kysely";
import type { Database } from "../kernel/db/schema.ts";
import { deleteKv, listKv, purgeExpiredKv, readKv, swapKv, writeKv } from "./repositories/fedify-store.ts";

/**
 * Fedify's key–value store (caches, idempotence of inbox activities, delivery breakers) in the
 * blog's database, so every app server sharing it sees one store (docs/decisions/0015-fediverse.md).
 * Values are JSON; an entry past its time to live reads as absent and is purged later.
 */
export class DatabaseKvStore implements KvStore {
  readonly #db: Kysely<Database>;
  readonly #now: () => Date;

  constructor(db: Kysely<Database>, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const value = await readKv(this.#db, encodeKey(key), this.#at());
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await writeKv(this.#db, { key: encodeKey(key), value: JSON.stringify(value), expiresAt: this.#expiresAt(options) });
  }

  async delete(key: KvKey): Promise<void> {
    await deleteKv(this.#db, encodeKey(key));
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    return swapKv(this.#db, {
      key: encodeKey(key),
      expected: expectedValue === undefined ? undefined : JSON.stringify(expectedValue),
      value: JSON.stringify(newValue),
      expiresAt: this.#expiresAt(options),
      at: this.#at(),
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const rows = await listKv(this.#db, { prefix: prefix && encodeKey(prefix), at: this.#at() });
    for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
  }

  /** Removes the entries whose time to live has passed; the delivery worker calls it now and then. */
  purgeExpired(): Promise<number> {
    return purgeExpiredKv(this.#db, this.#at());
  }

  #at(): string {
    return this.#now().toISOString();
  }

  #expiresAt(options: KvStoreSetOptions | undefined): string | null {
    if (!options?.ttl) return null;
    const ttlMs = options.ttl.total({ unit: "millisecond" });
    return new Date(this.#now().getTime() + ttlMs).toISOString();
  }
}

function encodeKey(key: KvKey): string {
  return JSON.stringify(key);
}
