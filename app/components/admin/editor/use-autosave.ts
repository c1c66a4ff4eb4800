import { useEffect, useRef, useState } from "react";
import type { AutosaveResult } from "#domain/editor.ts";
import { type EditedItem, editorPaths } from "./edited-item";

/** Quiet time after the last keystroke before the draft is kept. */
const AUTOSAVE_DELAY_MS = 2_000;
const RETRY_DELAYS_MS = [3_000, 10_000, 30_000];

export type AutosaveStatus = "idle" | "dirty" | "saving" | "saved" | "retrying";

export const AUTOSAVE_STATUS_TEXT: Record<AutosaveStatus, string> = {
  idle: "",
  dirty: "Unsaved changes",
  saving: "Saving…",
  saved: "Saved",
  retrying: "Not saved: retrying",
};

function draftBody(form: HTMLFormElement): URLSearchParams {
  const formData = new FormData(form);
  const body = new URLSearchParams();
  for (const name of ["title", "content", "format"]) body.set(name, String(formData.get(name) ?? ""));
  return body;
}

/**
 * Keeps the post's or page's title and body as an autosave revision a moment after typing stops,
 * retrying with growing pauses when the server cannot be reached. Publishing is never
 * touched: the endpoint stores a revision only. Leaving the page with changes that are
 * not yet kept anywhere asks first.
 */
export function useAutosave(form: HTMLFormElement | null, item: EditedItem | undefined) {
  const [status, setStatus] = useState<AutosaveStatus>("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const attempt = useRef(0);
  const lastKept = useRef<string | undefined>(undefined);
  const submitting = useRef(false);
  // A string, so the effect starts again only when the address changes, not with every render's object.
  const autosaveUrl = item ? editorPaths(item).autosave : undefined;

  useEffect(() => {
    if (!form) return;
    const save = async (): Promise<void> => {
      if (!autosaveUrl) return;
      const body = draftBody(form);
      const snapshot = body.toString();
      if (snapshot === lastKept.current) {
        setStatus("saved");
        return;
      }
      setStatus("saving");
      try {
        const response = await fetch(autosaveUrl, {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) throw new Error(`autosave answered ${response.status}`);
        (await response.json()) as AutosaveResult;
        lastKept.current = snapshot;
        attempt.current = 0;
        // Typing may have gone on while the request was out.
        setStatus(draftBody(form).toString() === snapshot ? "saved" : "dirty");
      } catch {
        const delay = RETRY_DELAYS_MS[Math.min(attempt.current, RETRY_DELAYS_MS.length - 1)]!;
        attempt.current += 1;
        setStatus("retrying");
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void save(), delay);
      }
    };

    lastKept.current = draftBody(form).toString();
    const onInput = () => {
      setStatus((current) => (current === "retrying" ? current : "dirty"));
      if (!autosaveUrl) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    };
    const onSubmit = () => {
      submitting.current = true;
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (submitting.current || draftBody(form).toString() === lastKept.current) return;
      event.preventDefault();
    };
    form.addEventListener("input", onInput);
    form.addEventListener("submit", onSubmit);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      clearTimeout(timer.current);
      form.removeEventListener("input", onInput);
      form.removeEventListener("submit", onSubmit);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, [form, autosaveUrl]);

  return status;
}
