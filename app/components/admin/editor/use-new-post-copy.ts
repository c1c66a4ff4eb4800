import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { postFormValues, type PostFormValues } from "#domain/post.ts";

/** Quiet time after the last keystroke before the copy is written. */
const KEEP_DELAY_MS = 1_000;

interface NewPostCopy {
  savedAt: string;
  values: PostFormValues;
}

interface StoredCopy {
  savedAt: string;
  entries: [string, string][];
}

const storageKey = (userId: string) => `inkwell:new-post:${userId}`;

/** Storage that is switched off or full throws a DOMException; the editor then works without a copy. */
function withStorage<T>(access: (storage: Storage) => T): T | undefined {
  try {
    return access(window.sessionStorage);
  } catch (error) {
    if (error instanceof DOMException) return undefined;
    throw error;
  }
}

function isStoredCopy(value: unknown): value is StoredCopy {
  if (typeof value !== "object" || value === null) return false;
  const { savedAt, entries } = value as Partial<StoredCopy>;
  return (
    typeof savedAt === "string" &&
    !Number.isNaN(Date.parse(savedAt)) &&
    Array.isArray(entries) &&
    entries.every(
      (entry) => Array.isArray(entry) && entry.length === 2 && entry.every((part) => typeof part === "string"),
    )
  );
}

/** The stored form, read through the same normalisation as a submitted one; anything else is ignored. */
function readCopy(key: string): NewPostCopy | undefined {
  const stored = withStorage((storage) => storage.getItem(key));
  if (!stored) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (!isStoredCopy(parsed)) return undefined;
  const formData = new FormData();
  for (const [name, value] of parsed.entries) formData.append(name, value);
  const values = postFormValues(formData);
  return values.title.trim() || values.content.trim() ? { savedAt: parsed.savedAt, values } : undefined;
}

/**
 * Keeps what is typed into a post that does not exist yet in this tab's session storage, as
 * WordPress keeps its browser backups: a crash, a reload, or a sign-in that had expired by the
 * time "Create Post" was pressed loses nothing, and the form offers the copy back on the next
 * visit. Posts that exist autosave to the server instead (use-autosave.ts). The copy goes when
 * the post is created or the writer discards it, and with the tab.
 */
export function useNewPostCopy(userId: string) {
  const key = storageKey(userId);
  // What was stored when the form opened; typing replaces the stored copy, not this one.
  const [stored, setStored] = useState(() => (typeof window === "undefined" ? undefined : readCopy(key)));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const edited = useRef(false);
  // The server has no storage: the offer appears once hydrated, so both renders agree.
  const offered = useHydrated() ? stored : undefined;

  useEffect(() => () => clearTimeout(timer.current), []);

  /** Writes the form a moment after typing stops, or at once (as it is submitted). */
  const keep = useCallback(
    (form: HTMLFormElement, { now = false } = {}) => {
      edited.current = true;
      const write = () => {
        const entries = [...new FormData(form)].filter(
          (entry): entry is [string, string] => typeof entry[1] === "string",
        );
        const copy: StoredCopy = { savedAt: new Date().toISOString(), entries };
        withStorage((storage) => storage.setItem(key, JSON.stringify(copy)));
      };
      clearTimeout(timer.current);
      if (now) write();
      else timer.current = setTimeout(write, KEEP_DELAY_MS);
    },
    [key],
  );

  /** The post was created: nothing of it needs keeping. */
  const forget = useCallback(() => {
    clearTimeout(timer.current);
    withStorage((storage) => storage.removeItem(key));
    setStored(undefined);
  }, [key]);

  /** Takes the offered copy into the form; it stays stored until what is typed next replaces it. */
  const restore = useCallback(() => {
    setStored(undefined);
    return stored?.values;
  }, [stored]);

  /** Drops the offered copy, unless what was typed since has already replaced it in storage. */
  const discard = useCallback(() => {
    if (!edited.current) withStorage((storage) => storage.removeItem(key));
    setStored(undefined);
  }, [key]);

  return { offered, keep, forget, restore, discard };
}
