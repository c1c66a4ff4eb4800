import { data } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { errorMeta, pageMeta } from "~/lib/meta";
import { toArticleData } from "~/lib/post-card-data";
import { withRouteErrors } from "~/lib/route-errors.server";
import { PRIVATE_PREVIEW_HEADERS, requirePreviewToken } from "~/lib/writers-desk.server";
import { appContext } from "#server/request-context.ts";
import { PostArticleBody } from "~/components/site/post-article-body";
import type { Route } from "./+types/preview";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load post. Please try again." },
  async ({ params, context }: Route.LoaderArgs) => {
    const post = await context.get(appContext).services.posts.getPreview(requirePreviewToken(params.token));
    return data({ post: toArticleData(post) }, { headers: PRIVATE_PREVIEW_HEADERS });
  },
);

export const headers: Route.HeadersFunction = () => PRIVATE_PREVIEW_HEADERS;

export const meta: Route.MetaFunction = ({ loaderData, error }) => [
  ...(error || !loaderData ? errorMeta(error) : pageMeta(`Preview: ${loaderData.post.title}`, loaderData.post.excerpt)),
  { name: "robots", content: "noindex" },
];

export default function PostPreview({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <article className="mx-auto max-w-3xl space-y-8">
      <p
        role="note"
        className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        Preview: this post is not published yet. Please do not share this link.
      </p>
      <PostArticleBody post={post} />
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
