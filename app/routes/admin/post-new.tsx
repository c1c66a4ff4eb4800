import { redirect } from "react-router";
import { PostForm } from "~/components/admin/post-form";
import { appContext } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { readPostSubmission, saveFailed } from "~/lib/post-form.server";
import { EMPTY_POST_FORM } from "~/schemas/post";
import type { Route } from "./+types/post-new";

export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin({ request, context });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services, logger } = context.get(appContext);
  const submission = await readPostSubmission(request);
  if ("invalid" in submission) return submission.invalid;
  try {
    await services.posts.createPost(submission.input);
  } catch (error) {
    logger.error({ err: error }, "post create failed");
    return saveFailed(submission.values);
  }
  return redirect("/admin/posts", { headers: { "Set-Cookie": await setFlash(request, "created") } });
}

export default function AdminPostNew({ actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Create New Post · Admin</title>
      <h1 className="mb-6 text-2xl font-bold tracking-tight sm:text-3xl">Create New Post</h1>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          initialValues={actionData?.values ?? EMPTY_POST_FORM}
          serverErrors={actionData?.errors}
          formError={actionData?.formError}
          submitLabel="Create Post"
        />
      </div>
    </>
  );
}
