import { Link } from "react-router";
import { NewsletterPanel } from "~/components/admin/editor/newsletter-panel";
import { PostViews } from "~/components/admin/analytics-post-views";
import { PostFediverseLine } from "~/components/admin/fediverse-counts";
import { PostMentionsLine } from "~/components/admin/mention-counts";
import { EDITOR_LOAD_FAILED_MESSAGES } from "~/components/admin/editor/edited-item";
import { PreviewLinkPanel } from "~/components/admin/editor/preview-link-panel";
import { ViewItemLink } from "~/components/admin/editor/view-item-link";
import { RevisionList } from "~/components/admin/editor/revision-list";
import { UnsavedNotice } from "~/components/admin/editor/unsaved-notice";
import { PostForm } from "~/components/admin/post-form";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { FlashNotice } from "~/components/admin/flash-notice";
import { editorAction, editorLoader, POST_EDITOR } from "~/lib/editor.server";
import { postPath } from "~/lib/post-card-data";
import { isPublicAt } from "#domain/post.ts";
import type { Route } from "./+types/post-edit";

export const loader = editorLoader(POST_EDITOR, async (post, { services, site }) => {
  const [sends, fediverse, mentionCounts, mentions, views, categories] = await Promise.all([
    services.postNewsletter.findSends([post.id]),
    // Only a post that was published can have been liked, boosted or replied to.
    post.published ? services.fediverse.postCounts(post.id) : undefined,
    // … or mentioned by another site (Webmention).
    post.published ? services.webmention.countsFor([post.id]) : undefined,
    post.published ? services.webmention.listForPost(post.id) : undefined,
    // Readers are counted by the post's address; a draft has had none.
    post.published ? services.analyticsReports.postViews(postPath(post.slug), site.timeZone) : undefined,
    services.categories.list(),
  ]);
  return {
    isPublic: isPublicAt(post, new Date()),
    views,
    email: { on: services.postNewsletter.emailOn, newsletter: post.newsletter },
    send: sends.get(post.id),
    fediverse,
    categories: categories.map((category) => category.name),
    mentions:
      mentionCounts?.get(post.id) && mentions ? { counts: mentionCounts.get(post.id)!, items: mentions } : undefined,
  };
});

export const action = editorAction(POST_EDITOR);

export default function AdminPostEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Edit Post · Admin</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Post</h1>
        <div className="flex flex-wrap items-center gap-4">
          {loaderData.views ? <PostViews views={loaderData.views} /> : null}
          <Link
            to={`/admin/comments?${new URLSearchParams({ post: loaderData.id })}`}
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Comments on this post
          </Link>
          <ViewItemLink
            item={{ kind: "post", id: loaderData.id }}
            slug={loaderData.slug}
            isPublic={loaderData.isPublic}
          />
        </div>
      </div>
      <FlashNotice
        message={loaderData.flash}
        className="mb-6"
        action={
          loaderData.stayed ? (
            <ViewItemLink
              item={{ kind: "post", id: loaderData.id }}
              slug={loaderData.slug}
              isPublic={loaderData.isPublic}
            />
          ) : null
        }
      />
      <NewsletterPanel postId={loaderData.id} newsletter={loaderData.email.newsletter} send={loaderData.send} />
      {loaderData.fediverse ? <PostFediverseLine postId={loaderData.id} counts={loaderData.fediverse} /> : null}
      {loaderData.mentions ? (
        <PostMentionsLine
          postId={loaderData.id}
          counts={loaderData.mentions.counts}
          mentions={loaderData.mentions.items}
        />
      ) : null}
      <UnsavedNotice unsavedSince={loaderData.unsavedSince} recovering={loaderData.recovering} />
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          key={`${loaderData.id}-${loaderData.recovering ? "recovered" : "saved"}`}
          initialValues={actionData?.values ?? loaderData.values}
          result={actionData}
          submitLabel="Save Changes"
          postId={loaderData.id}
          email={loaderData.email}
          draft={!loaderData.published}
          categories={loaderData.categories}
        />
      </div>
      <div className="mt-8 grid gap-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 md:grid-cols-2 dark:border-slate-800 dark:bg-slate-900">
        <RevisionList postId={loaderData.id} revisions={loaderData.revisions} />
        <PreviewLinkPanel
          postId={loaderData.id}
          activeSince={loaderData.previewLinkSince}
          published={loaderData.published}
        />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={EDITOR_LOAD_FAILED_MESSAGES.post} />;
}
