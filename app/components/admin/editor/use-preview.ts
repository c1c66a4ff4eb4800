import { useEffect, useState } from "react";
import type { PreviewRender } from "#domain/editor.ts";
import type { PostFormat } from "#domain/post.ts";

const PREVIEW_DELAY_MS = 300;

export type PreviewState = { html: string; readingMinutes: number; failed: boolean };

/**
 * The body as readers will get it, from the server's own renderer and sanitiser, asked for
 * a moment after typing pauses; an answer that arrives after a newer request is dropped.
 */
export function usePreview(content: string, format: PostFormat, enabled: boolean): PreviewState | undefined {
  const [preview, setPreview] = useState<PreviewState>();
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch("/admin/preview-render", {
          method: "POST",
          body: new URLSearchParams({ content, format }),
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`preview answered ${response.status}`);
        const rendered = (await response.json()) as PreviewRender;
        setPreview({ html: rendered.html, readingMinutes: rendered.readingMinutes, failed: false });
      } catch (error) {
        if (!controller.signal.aborted)
          setPreview((current) => ({
            html: current?.html ?? "",
            readingMinutes: current?.readingMinutes ?? 0,
            failed: true,
          }));
        if (!(error instanceof Error)) throw error;
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, format, enabled]);
  return preview;
}
