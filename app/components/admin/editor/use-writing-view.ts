import { useCallback, useState } from "react";
import { useFetcher, useRouteLoaderData } from "react-router";
import type { WritingView } from "#domain/account.ts";
import type { loader as adminLoader } from "~/routes/admin/layout";

export type { WritingView };

/**
 * The writer's view of the body, Visual or Markdown, kept on their account (migration 0041), so
 * it follows them to every browser (docs/decisions/0032). The choice shows at once; if it cannot
 * be kept (the database away for a moment) it still holds on this page.
 */
export function useWritingView(): [WritingView, (view: WritingView) => void] {
  const kept = useRouteLoaderData<typeof adminLoader>("routes/admin/layout")?.writingView ?? "markdown";
  const [chosen, setChosen] = useState<WritingView>();
  const { submit } = useFetcher({ key: "writing-view" });
  const choose = useCallback(
    (next: WritingView) => {
      setChosen(next);
      void submit({ view: next }, { method: "post", action: "/admin/writing-view" });
    },
    [submit],
  );
  return [chosen ?? kept, choose];
}
