import type { Kysely } from "kysely";
import { isDomainError } from "#domain/errors.ts";
import type { z } from "#domain/zod.ts";
import type { Database } from "./db/schema.ts";
import { keyedSettingsRecord } from "./repositories/settings.ts";
import { type PeriodicWorker, periodicWorker, type WorkerErrorReporter } from "./workers.ts";

/**
 * How stale another app server's save may be here: each group's stored version is asked at most
 * once a second, when read and on the store's one timer (its worker), so even a page served from
 * the page cache, which reads no settings, is dropped within about a second of a save anywhere.
 */
export const SETTINGS_CHECK_MS = 1000;

/**
 * Where one group of settings is kept (its SQL lives in a repository): the value as JSON text,
 * and a version that moves whenever the value is saved.
 */
export interface SettingsRecord {
  /** The cheap question asked once a second; undefined while nothing was ever saved. */
  version(): Promise<string | undefined>;
  read(): Promise<{ text: string; version: string } | undefined>;
  /** Saves the whole value; answers its new version. */
  write(text: string): Promise<string>;
}

/** A group of settings: saved and read as one value, checked by its schema. */
export interface SettingsGroup<T> {
  key: string;
  schema: z.ZodType<T>;
  /** What a blog that never saved the group reads, and what a stored value the schema refuses reads as. */
  defaults: T;
  /** Where it is kept: the `settings` row named `key` unless told otherwise. */
  record?: SettingsRecord;
  /** Whether listeners hear of a new version; any new version unless told otherwise. */
  isChange?: (next: T, previous: T) => boolean;
}

export interface Settings<T> {
  /** The value, read from the database at most once a second (SETTINGS_CHECK_MS). */
  read(): Promise<T>;
  /** The stored value now, not the cached one: what a change is made of, so another server's save a moment ago survives. */
  readFresh(): Promise<T>;
  /** The value last read, or the defaults before any: what a page shows while the database is out of reach. */
  lastRead(): T;
  /** Checks `value` with the schema, saves it and tells the listeners; answers what was saved. */
  save(value: T): Promise<T>;
  /** Hears each change once, this server's save or another's once seen. Returns the unsubscribe. */
  onChange(listener: (next: T, previous: T) => void): () => void;
}

export interface SettingsStoreDeps {
  db: Kysely<Database>;
  now: () => Date;
}

/** One app server's settings: every group cached the same way and checked by one timer. */
export function createSettingsStore({ db, now }: SettingsStoreDeps) {
  const checks = new Map<string, () => Promise<void>>();
  const storeListeners = new Set<(key: string) => void>();

  function define<T>(group: SettingsGroup<T>): Settings<T> {
    if (checks.has(group.key)) throw new Error(`The settings group "${group.key}" is defined twice`);
    const record = group.record ?? keyedSettingsRecord(db, group.key);
    const isChange = group.isChange ?? (() => true);
    const listeners = new Set<(next: T, previous: T) => void>();
    let cache: { value: T; version: string | undefined; checkedAt: number } | undefined;
    let checking: Promise<void> | undefined;

    /** Stored values over the defaults, so a setting added later has a value on an old blog. */
    function parse(text: string | undefined): T {
      if (text === undefined) return group.defaults;
      let stored: unknown;
      try {
        stored = JSON.parse(text);
      } catch {
        return group.defaults;
      }
      const merged = stored !== null && typeof stored === "object" ? { ...group.defaults, ...stored } : stored;
      const parsed = group.schema.safeParse(merged);
      return parsed.success ? parsed.data : group.defaults;
    }

    function tell(next: T, previous: T): void {
      if (!isChange(next, previous)) return;
      for (const listener of listeners) listener(next, previous);
      for (const listener of storeListeners) listener(group.key);
    }

    async function checkVersion(): Promise<void> {
      const at = now().getTime();
      const seen = cache;
      const version = await record.version();
      if (seen && seen.version === version) {
        seen.checkedAt = at;
        return;
      }
      const stored = await record.read();
      // A save on this server while the check ran knows better than what the check read before it.
      if (cache !== seen) return;
      cache = { value: parse(stored?.text), version: stored?.version, checkedAt: at };
      if (seen) tell(cache.value, seen.value);
    }

    /** One check at a time: readers arriving meanwhile, and the timer, wait for it. */
    function check(): Promise<void> {
      checking ??= checkVersion().finally(() => {
        checking = undefined;
      });
      return checking;
    }

    async function read(): Promise<T> {
      if (!cache || now().getTime() - cache.checkedAt >= SETTINGS_CHECK_MS) await check();
      return cache!.value;
    }

    checks.set(group.key, check);
    return {
      read,
      async readFresh() {
        await check();
        return cache!.value;
      },
      lastRead: () => cache?.value ?? group.defaults,
      async save(value) {
        const next = group.schema.parse(value);
        const previous = await read();
        const version = await record.write(JSON.stringify(next));
        // A check that raced this save has already seen it and told the listeners.
        if (cache?.version === version) return next;
        cache = { value: next, version, checkedAt: now().getTime() };
        tell(next, previous);
        return next;
      },
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  }

  /** Checks every group's version now; an outage is ridden out (readers meet it themselves). */
  async function checkAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const check of checks.values()) {
      await check().catch((error: unknown) => {
        if (!isDomainError(error, "DATABASE_UNAVAILABLE")) failures.push(error);
      });
    }
    if (failures.length > 0) throw failures[0];
  }

  return {
    define,
    checkAll,
    /** Hears a change of any group (the key names it): the page cache drops its pages here. */
    onChange(listener: (key: string) => void): () => void {
      storeListeners.add(listener);
      return () => storeListeners.delete(listener);
    },
    /**
     * Checks every group once a second whether or not a request reads them: pages served from
     * the page cache never do, so without it they would keep the old title until some uncached
     * page happened to load. A failed check other than an outage reaches `onError`.
     */
    worker(onError: WorkerErrorReporter): PeriodicWorker {
      return periodicWorker({ name: "settings watch", everyMs: SETTINGS_CHECK_MS, run: checkAll, onError });
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
