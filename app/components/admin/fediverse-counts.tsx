import { Link } from "react-router";
import { AdminTable, TITLE_MAX } from "~/components/admin/admin-list";
import { pluralise, truncate } from "~/lib/format";
import type { PostFediverseCounts } from "#domain/fediverse.ts";

const CELL_CLASS = "px-4 py-3";

export type PostCountsRow = PostFediverseCounts & { id: string; title: string };

function commentsOf(postId: string): string {
  return `/admin/comments?${new URLSearchParams({ post: postId })}`;
}

/** Public posts, newest first, with what the fediverse did with each. Replies lead to the post's comments. */
export function PostCountsTable({ rows }: { rows: readonly PostCountsRow[] }) {
  return (
    <AdminTable columns={["Post", "Likes", "Boosts", "Replies"]} cellClass={CELL_CLASS} className="mt-4">
      {rows.map((row) => (
        <tr key={row.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
          <td className={`${CELL_CLASS} font-medium`}>
            <Link to={`/admin/posts/edit/${row.id}`} className="hover:underline" title={row.title}>
              {truncate(row.title, TITLE_MAX)}
            </Link>
          </td>
          <td className={`${CELL_CLASS} tabular-nums`}>{row.likes}</td>
          <td className={`${CELL_CLASS} tabular-nums`}>{row.boosts}</td>
          <td className={`${CELL_CLASS} tabular-nums`}>
            {row.replies > 0 ? (
              <Link to={commentsOf(row.id)} className="text-indigo-700 hover:underline dark:text-indigo-300">
                {row.replies}
                <span className="sr-only"> (see the comments)</span>
              </Link>
            ) : (
              row.replies
            )}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/** On a post's editor: one line of its likes, boosts and replies from the fediverse. */
export function PostFediverseLine({ postId, counts }: { postId: string; counts: PostFediverseCounts }) {
  return (
    <p className="mb-6 text-sm text-slate-700 dark:text-slate-300">
      <span className="font-medium">On the fediverse:</span> {pluralise(counts.likes, "like")},{" "}
      {pluralise(counts.boosts, "boost")},{" "}
      {counts.replies > 0 ? (
        <Link to={commentsOf(postId)} className="text-indigo-700 hover:underline dark:text-indigo-300">
          {pluralise(counts.replies, "reply", "replies")}
        </Link>
      ) : (
        pluralise(counts.replies, "reply", "replies")
      )}
      .
    </p>
  );
}
