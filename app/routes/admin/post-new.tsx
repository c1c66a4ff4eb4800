import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { useNewPostCopy } from "~/components/admin/editor/use-new-post-copy";
import { PostForm } from "~/components/admin/post-form";
import { buttonStyles } from "~/components/ui/styles";
import { formatDateTime } from "~/lib/format";
import { requireAdmin } from "~/lib/auth.server";
import { newItemAction, POST_EDITOR } from "~/lib/editor.server";
import { EMPTY_POST_FORM, type PostFormValues } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-new";

/** A new post is signed by whoever writes it, unless they change the author field. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const categories = (await services.categories.list()).map((category) => category.name);
  return { author: user.username, userId: user.id, emailOn: services.postNewsletter.emailOn, categories };
}

export const action = newItemAction(POST_EDITOR);

export default function AdminPostNew({ loaderData, actionData }: Route.ComponentProps) {
  const copy = useNewPostCopy(loaderData.userId);
  // A restored copy fills the form until the next submission answers with values of its own.
  const [restored, setRestored] = useState<{ values: PostFormValues; before: typeof actionData }>();
  const showRestored = restored && restored.before === actionData ? restored.values : undefined;
  const navigation = useNavigation();
  // The action answers a created post with a redirect to the list, or to its editor ("keep
  // editing", "Save draft"); a refusal, or a sign-in that had expired, leaves the copy for the next visit.
  const { pathname } = navigation.location ?? { pathname: "" };
  const created =
    navigation.state === "loading" &&
    navigation.formMethod === "POST" &&
    (pathname === "/admin/posts" || pathname.startsWith("/admin/posts/edit/"));
  const { forget } = copy;
  useEffect(() => {
    if (created) forget();
  }, [created, forget]);

  return (
    <>
      <title>Create New Post · Admin</title>
      <h1 className="mb-6 text-2xl font-bold tracking-tight sm:text-3xl">Create New Post</h1>
      {copy.offered ? (
        <div
          role="alert"
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <span>
            This browser kept a post you had not created yet
            {copy.offered.values.title.trim() ? <>, “{copy.offered.values.title.trim()}”,</> : null} from{" "}
            <time dateTime={copy.offered.savedAt}>{formatDateTime(copy.offered.savedAt)}</time>.
          </span>
          <span className="flex gap-2">
            <button
              type="button"
              className={buttonStyles.primary}
              onClick={() => {
                const values = copy.restore();
                if (values) setRestored({ values, before: actionData });
              }}
            >
              Restore it
            </button>
            <button type="button" className={buttonStyles.secondary} onClick={copy.discard}>
              Discard it
            </button>
          </span>
        </div>
      ) : null}
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          key={restored ? "restored" : "new"}
          initialValues={showRestored ?? actionData?.values ?? { ...EMPTY_POST_FORM, author: loaderData.author }}
          result={showRestored ? undefined : actionData}
          submitLabel="Create Post"
          email={{ on: loaderData.emailOn, newsletter: "off" }}
          draft
          categories={loaderData.categories}
          onEdit={copy.keep}
        />
      </div>
    </>
  );
}
