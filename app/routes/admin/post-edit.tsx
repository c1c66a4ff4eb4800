import { data, redirect } from "react-router";
import { PostForm } from "~/components/admin/post-form";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { appContext } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { readPostSubmission, saveFailed } from "~/lib/post-form.server";
import { throwAsRouteError } from "~/lib/route-errors.server";
import { isDomainError } from "../../../server/errors.ts";
import type { Route } from "./+types/post-edit";

const LOAD_FAILED_MESSAGE = "Failed to load post";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin({ request, context });
  const { services } = context.get(appContext);
  try {
    const post = await services.posts.getPostForEditing(params.id);
    return {
      id: post.id,
      values: {
        title: post.title,
        content: post.content,
        excerpt: post.excerpt,
        author: post.author,
        coverImage: post.coverImage,
        category: post.category,
        tags: post.tags,
        published: post.published,
      },
    };
  } catch (error) {
    throwAsRouteError(error, context, { POST_NOT_FOUND: LOAD_FAILED_MESSAGE, READ_FAILED: LOAD_FAILED_MESSAGE });
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services, logger } = context.get(appContext);
  const submission = await readPostSubmission(request);
  if ("invalid" in submission) return submission.invalid;
  try {
    await services.posts.updatePost(params.id, submission.input);
  } catch (error) {
    if (isDomainError(error, "POST_NOT_FOUND")) throw data({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
    logger.error({ err: error, postId: params.id }, "post update failed");
    return saveFailed(submission.values);
  }
  return redirect("/admin/posts", { headers: { "Set-Cookie": await setFlash(request, "saved") } });
}

export default function AdminPostEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Edit Post · Admin</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Post</h1>
        <a
          href={`/blog/${loaderData.id}`}
          target="_blank"
          rel="noopener noreferrer"
          className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          View post<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          key={loaderData.id}
          initialValues={actionData?.values ?? loaderData.values}
          serverErrors={actionData?.errors}
          formError={actionData?.formError}
          submitLabel="Save Changes"
        />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
