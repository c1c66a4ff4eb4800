import { redirect } from "react-router";
import { PostForm } from "~/components/admin/post-form";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission } from "~/lib/forms.server";
import { slugTaken } from "~/lib/post-form.server";
import { isDomainError } from "#domain/errors.ts";
import { describeDomainError } from "~/lib/route-errors.server";
import { EMPTY_POST_FORM, postForm, SAVE_FAILED_MESSAGE } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-new";

/** A new post is signed by whoever writes it, unless they change the author field. */
export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin({ request, context });
  return { author: user.username };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const submission = await parseSubmission(request, postForm);
  if (!submission.ok) return submission.response;
  try {
    await services.posts.createPost(submission.input, writerOf(admin));
  } catch (error) {
    if (isDomainError(error, "SLUG_TAKEN")) return slugTaken(submission.values, error);
    // What the admin typed comes back with the spec's message, so nothing is lost.
    const failure = describeDomainError(error, context, { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE });
    return formFailure(submission.values, { formError: failure.message }, failure.status, failure.headers);
  }
  return redirect("/admin/posts", { headers: { "Set-Cookie": await setFlash(request, "created") } });
}

export default function AdminPostNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Create New Post · Admin</title>
      <h1 className="mb-6 text-2xl font-bold tracking-tight sm:text-3xl">Create New Post</h1>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          initialValues={actionData?.values ?? { ...EMPTY_POST_FORM, author: loaderData.author }}
          result={actionData}
          submitLabel="Create Post"
        />
      </div>
    </>
  );
}
