import { data, Link, redirect } from "react-router";
import { CategoryBadge } from "~/components/site/category-badge";
import { type CommentFormResult, readCommentForm } from "~/components/site/comment-form";
import { CommentSection } from "~/components/site/comment-section";
import { ErrorPanel } from "~/components/site/error-panel";
import { PostByline } from "~/components/site/post-byline";
import { PostCard } from "~/components/site/post-card";
import { TagList } from "~/components/site/tag-list";
import { CoverImage } from "~/components/ui/cover-image";
import { ArrowLeftIcon } from "~/components/ui/icons";
import { buttonStyles } from "~/components/ui/styles";
import { appContext } from "~/context";
import { categoryPath } from "~/lib/categories";
import { collectFieldErrors } from "~/lib/forms";
import { errorMeta, pageMeta } from "~/lib/meta";
import { postPath, toPostCardData } from "~/lib/post-card-data";
import { describeDomainError, type RouteErrorData, throwAsRouteError } from "~/lib/route-errors.server";
import { COMMENT_AUTHOR_MAX, COMMENT_CONTENT_MAX, commentSchema } from "~/schemas/comment";
import type { Route } from "./+types/post";

/** Room for the longest valid comment even when every character is percent-encoded UTF-8. */
const COMMENT_REQUEST_MAX_BYTES = (COMMENT_AUTHOR_MAX + COMMENT_CONTENT_MAX) * 12 + 1024;

/** A blank id (e.g. /blog/%20) names no post at all: a bad request rather than a missing post. */
function requirePostId(id: string): string {
  if (id.trim() === "") throw data<RouteErrorData>({ message: "Post ID is missing" }, { status: 400 });
  return id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requirePostId(params.id);
  try {
    const { post, comments, related } = await context.get(appContext).services.posts.getPublicPost(id);
    return {
      post: { ...toPostCardData(post), content: post.content },
      comments,
      related: related.map(toPostCardData),
    };
  } catch (error) {
    throwAsRouteError(error, context, { READ_FAILED: "Failed to load post. Please try again." });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = requirePostId(params.id);
  const { services, clientAddress } = context.get(appContext);
  if (Number(request.headers.get("Content-Length") ?? 0) > COMMENT_REQUEST_MAX_BYTES) {
    return data<CommentFormResult>(
      {
        values: { author: "", content: "" },
        errors: {},
        formError: `Your comment is too long: comments can be at most ${COMMENT_CONTENT_MAX.toLocaleString("en-US")} characters.`,
      },
      { status: 413 },
    );
  }
  const values = readCommentForm(await request.formData());
  const parsed = commentSchema.safeParse(values);
  if (!parsed.success) {
    return data<CommentFormResult>({ values, errors: collectFieldErrors(parsed.error) }, { status: 400 });
  }
  let commentId: string;
  try {
    commentId = (await services.comments.addComment(id, parsed.data, { clientAddress })).id;
  } catch (error) {
    const failure = describeDomainError(error, context, {
      READ_FAILED: "Failed to add comment. Please try again.",
      WRITE_FAILED: "Failed to add comment. Please try again.",
      RATE_LIMITED: "You are commenting too often. Please wait a few minutes and try again.",
    });
    if (failure.status === 404) throwAsRouteError(error, context);
    return data<CommentFormResult>(
      { values, errors: {}, formError: failure.message },
      { status: failure.status, headers: failure.headers },
    );
  }
  // Post/redirect/get: a reload never posts the comment twice, and the page lands on it.
  return redirect(`${postPath(id)}#comment-${commentId}`, 303);
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  error || !loaderData ? errorMeta(error) : pageMeta(loaderData.post.title, loaderData.post.excerpt);

export default function Post({ loaderData, actionData }: Route.ComponentProps) {
  const { post, comments, related } = loaderData;
  return (
    <div className="space-y-16">
      <article className="mx-auto max-w-3xl space-y-8">
        <CoverImage
          src={post.coverImage}
          alt=""
          fallbackText="Image Not Found"
          loading="eager"
          className="aspect-[40/21] w-full rounded-2xl"
        />
        <header className="space-y-4">
          <CategoryBadge category={post.category} />
          <h1 className="font-serif text-3xl leading-tight font-bold text-slate-900 sm:text-5xl dark:text-white">
            {post.title}
          </h1>
          <PostByline author={post.author} createdAt={post.createdAt} className="text-base" />
        </header>
        {/* Sanitised on the server (server/html.ts) before it leaves the post service. */}
        <div className="post-content" dangerouslySetInnerHTML={{ __html: post.content }} />
        <TagList tags={post.tags} />
        <nav
          aria-label="More posts"
          className="flex flex-wrap gap-3 border-t border-slate-200 pt-6 dark:border-slate-800"
        >
          <Link to="/blog" className={buttonStyles.secondary}>
            <ArrowLeftIcon className="size-4" />
            All Posts
          </Link>
          <Link to={categoryPath(post.category)} className={buttonStyles.secondary}>
            More in {post.category}
          </Link>
        </nav>
      </article>

      <div className="mx-auto max-w-3xl">
        <CommentSection comments={comments} action={postPath(post.id)} result={actionData} />
      </div>

      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="space-y-6">
          <h2 id="related-heading" className="font-serif text-2xl font-bold text-slate-900 dark:text-white">
            Related Posts
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {related.map((relatedPost) => (
              <PostCard key={relatedPost.id} post={relatedPost} headingLevel={3} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/blog", label: "Back to all posts" }} />;
}
