import { Form, Link, useNavigation } from "react-router";
import { buttonStyles } from "~/components/ui/styles";

const sectionClass =
  "mt-6 max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the demo left, as the section says it. */
export interface DemoLeft {
  posts: number;
  comments: number;
  kept: string[];
}

/**
 * Tools → "Remove the demo content": what is left of the demo, a link that asks first (`?remove-demo`,
 * so it works without JavaScript), the question with Yes (a POST) and Cancel, and the result in words.
 */
export function DemoRemoval({ left, asking, result }: { left: DemoLeft; asking: boolean; result?: string[] }) {
  const navigation = useNavigation();
  const removing = navigation.state === "submitting" && navigation.formData?.get("intent") === "remove-demo";
  if (!result && left.posts === 0) return null;
  const what = `${plural(left.posts, "demo post", "demo posts")} and ${plural(left.comments, "comment", "comments")}`;
  return (
    <section aria-labelledby="demo-heading" className={sectionClass}>
      <h2 id="demo-heading" className="text-lg font-semibold">
        Demo content
      </h2>
      {result ? (
        <div role="status" className="space-y-1 text-sm font-medium text-emerald-800 dark:text-emerald-200">
          {result.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {left.posts > 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          The blog still shows the {what} it started with. Removing them leaves every post you wrote, and every demo
          post you edited, as it is.
        </p>
      ) : null}
      {left.posts > 0 && !asking ? (
        <Link to="?remove-demo" preventScrollReset className={buttonStyles.secondary}>
          Remove the demo content
        </Link>
      ) : null}
      {left.posts > 0 && asking ? (
        <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p className="font-semibold">Remove the {what}? This cannot be undone.</p>
          <Form method="post" action="/admin/tools" preventScrollReset className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="remove-demo" />
            <button type="submit" disabled={removing} className={buttonStyles.primary}>
              {removing ? "Removing…" : "Yes, remove the demo content"}
            </button>
            <Link to="/admin/tools" preventScrollReset className={buttonStyles.secondary}>
              Cancel
            </Link>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

/** The result of a removal in words: what went, and the demo posts kept because they changed. */
export function describeDemoRemoval({ posts, comments, kept }: { posts: number; comments: number; kept: string[] }) {
  const lines = [
    posts === 0
      ? "There was no demo content left to remove."
      : `Removed ${plural(posts, "demo post", "demo posts")} and ${plural(comments, "comment", "comments")}.`,
  ];
  if (kept.length > 0) {
    lines.push(
      `Kept ${plural(kept.length, "demo post", "demo posts")} that changed since the demo wrote ${kept.length === 1 ? "it" : "them"}: ${kept.map((title) => `“${title}”`).join(", ")}. Delete ${kept.length === 1 ? "it" : "them"} in Posts if you no longer want ${kept.length === 1 ? "it" : "them"}.`,
    );
  }
  return lines;
}
