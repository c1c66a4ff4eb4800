import { createContext, data, Link, redirect } from "react-router";
import { CommentSection } from "~/components/site/comment-section";
import { ErrorPanel } from "~/components/site/error-panel";
import { PostCard } from "~/components/site/post-card";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { AuthorBox } from "~/components/site/author-box";
import { ArrowLeftIcon } from "~/components/ui/icons";
import { buttonStyles } from "~/components/ui/styles";
import { postTag } from "#server/kernel/content-changes.ts";
import { formFailure, parseSubmission } from "~/lib/forms.server";
import { errorMeta, postMeta, withSite } from "~/lib/meta";
import { postPath, toArticleData, toPostCardData } from "~/lib/post-card-data";
import { requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { answerDomainErrors, type DomainFailure, type RouteErrorData } from "~/lib/route-errors.server";
import { categoryPath } from "#domain/categories.ts";
import {
  COMMENT_AUTHOR_MAX,
  COMMENT_CONTENT_MAX,
  type CommentInput,
  commentForm,
  COMMENTS_CLOSED_MESSAGE,
  HONEYPOT_FIELD,
  REPLY_PARENT_GONE_MESSAGE,
  REPLY_TO_FIELD,
  writerCommentForm,
} from "#domain/comment.ts";
import { formText, queryText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { WEBMENTION_PATH } from "#domain/webmention.ts";
import { appContext, userContext } from "#server/request-context.ts";
import { PostArticleBody } from "~/components/site/post-article-body";
import type { Route } from "./+types/post";
import { staticPage } from "~/lib/static-page";

/** Room for the longest valid comment even when every character is percent-encoded UTF-8. */
const COMMENT_REQUEST_MAX_BYTES = (COMMENT_AUTHOR_MAX + COMMENT_CONTENT_MAX) * 12 + 1024;

/**
 * A blank address (e.g. /blog/%20) names no post at all: a bad request rather than a missing
 * post. Anything that cannot be a slug or an id is answered without asking the database.
 */
function requirePostAddress(address: string): string {
  if (address.trim() === "") throw data<RouteErrorData>({ message: "Post ID is missing" }, { status: 400 });
  if (!isPostId(address)) throw data<RouteErrorData>({ message: "Post not found" }, { status: 404 });
  return address;
}

/**
 * Whether the request is a visit rather than a comment being posted. React Router hands the
 * loader a GET even after an action, so the request's own method is read here, first.
 */
const isVisitContext = createContext<boolean>(true);

export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    context.set(isVisitContext, request.method === "GET" || request.method === "HEAD");
  },
];

/** `/blog/{slug}` is the post's one address; its id and former slugs answer 301 to it. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const address = requirePostAddress(params.slug);
  const { services, pendingCommentsCookie, tagPage } = context.get(appContext);
  const commentPage = requestedPage(request);
  const loadFailed = { DATABASE_UNAVAILABLE: "Failed to load post. Please try again." };
  const { post, related } = await answerDomainErrors(context, { messages: loadFailed }, () =>
    services.posts.getPublicPost(address),
  );
  // After a comment posted to an old address fails validation, the page answers there with
  // the form's errors; a redirect would lose them.
  if (post.slug !== address && context.get(isVisitContext)) throw redirect(postPath(post.slug), 301);
  const [thread, author] = await answerDomainErrors(context, { messages: loadFailed }, async () =>
    Promise.all([
      services.comments.describeThread(post, await pendingCommentsCookie.read(request), commentPage),
      services.users.findAuthorByName(post.author),
    ]),
  );
  requireExistingPage(thread.comments);
  tagPage([postTag(post.id), ...related.map((relatedPost) => postTag(relatedPost.id))]);
  // A signed-in writer comments under their own name (their pages bypass the page cache).
  const user = context.get(userContext);
  return {
    post: toArticleData(post),
    comments: thread.comments,
    awaitingModeration: thread.awaitingModeration,
    commentsOpen: thread.open,
    // While email is on, the form offers "Email me when someone replies" (server/comment-emails).
    repliesByEmail: await services.commentEmails.isOpen(),
    replyTo: queryText(new URL(request.url), REPLY_TO_FIELD) || undefined,
    writer: user ? { name: user.username } : undefined,
    related: related.map(toPostCardData),
    author,
  };
}

/** The new comment on the page of comments its thread is on (a reply's thread may be on a later page). */
function commentAddress(comment: { id: string; postSlug: string; page?: number }): string {
  const page = comment.page !== undefined && comment.page > 1 ? `?page=${comment.page}` : "";
  return `${postPath(comment.postSlug)}${page}#comment-${comment.id}`;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const address = requirePostAddress(params.slug);
  const { services, clientAddress, pendingCommentsCookie } = context.get(appContext);
  if (Number(request.headers.get("Content-Length") ?? 0) > COMMENT_REQUEST_MAX_BYTES) {
    const formError = `Your comment is too long: comments can be at most ${COMMENT_CONTENT_MAX.toLocaleString("en-US")} characters.`;
    return formFailure({ author: "", content: "", replyEmail: "" }, { formError }, 413);
  }
  const user = context.get(userContext);
  const submission = user
    ? await parseSubmission(request, writerCommentForm)
    : await parseSubmission(request, commentForm);
  if (!submission.ok) return submission.response;
  const messages = {
    DATABASE_UNAVAILABLE: "Failed to add comment. Please try again.",
    RATE_LIMITED: "You are commenting too often. Please wait a few minutes and try again.",
    COMMENT_FLOOD: "You are posting comments too quickly. Please wait a few seconds and try again.",
    DUPLICATE_COMMENT: "You have already posted this comment.",
    COMMENT_REFUSED: "Your comment was not posted: the field “Leave this field empty” must stay empty.",
    COMMENTS_CLOSED: COMMENTS_CLOSED_MESSAGE,
    REPLY_PARENT_GONE: REPLY_PARENT_GONE_MESSAGE,
  };
  // A post that is gone is the page's error; any other refusal comes back to the form.
  const answer = (failure: DomainFailure) => {
    if (failure.status === 404) throw data<RouteErrorData>({ message: failure.message }, { status: 404 });
    return formFailure(submission.values, { formError: failure.message }, failure.status, failure.headers);
  };
  const replyTo = formText(submission.formData, REPLY_TO_FIELD);
  return answerDomainErrors(context, { messages, answer }, async () => {
    if (user) {
      const comment = await services.comments.addWriterComment(
        address,
        { content: submission.input.content, ...(replyTo ? { replyTo } : {}) },
        { id: user.id, name: user.username },
      );
      return redirect(commentAddress(comment), 303);
    }
    const input = { ...(submission.input as CommentInput), ...(replyTo ? { replyTo } : {}) };
    const comment = await services.comments.addComment(address, input, {
      clientAddress,
      honeypot: formText(submission.formData, HONEYPOT_FIELD) || undefined,
    });
    // Post/redirect/get: a reload never posts the comment twice, and the page lands on it.
    // A held comment is remembered in the visitor's own cookie, so they, and only they, still see it.
    const headers: HeadersInit =
      comment.status === "pending" ? { "Set-Cookie": await pendingCommentsCookie.remember(request, comment.id) } : {};
    return redirect(commentAddress(comment), { status: 303, headers });
  });
}

/** A refused comment's answer keeps its headers (Retry-After) on the page the browser gets back. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) => {
  if (error || !loaderData) return errorMeta(error);
  // Other sites send their mentions here (server/webmention); the Link header says it too.
  return [
    ...postMeta(loaderData.post, { matches, location }, loaderData.author),
    { tagName: "link", rel: "webmention", href: WEBMENTION_PATH },
  ];
});

export default function Post({ loaderData, actionData }: Route.ComponentProps) {
  const { post, comments, awaitingModeration, commentsOpen, repliesByEmail, replyTo, writer, related, author } =
    loaderData;
  return (
    // The h-entry (microformats2) spans the comments too, which it carries as u-comment.
    <div className="h-entry space-y-16">
      <article className="mx-auto max-w-3xl space-y-8">
        <PostArticleBody post={post} />
        {author ? <AuthorBox author={author} /> : null}
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

      <div className="mx-auto max-w-3xl rounded-xl border border-slate-200 p-6 dark:border-slate-800">
        <SubscribeForm id="post-subscribe" />
      </div>

      <div className="mx-auto max-w-3xl">
        <CommentSection
          comments={comments}
          awaitingModeration={awaitingModeration}
          open={commentsOpen}
          repliesByEmail={repliesByEmail}
          postPath={postPath(post.slug)}
          replyTo={replyTo}
          writer={writer}
          result={actionData}
        />
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
