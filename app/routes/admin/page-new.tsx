import { PageForm } from "~/components/admin/page-form";
import { requireAdmin } from "~/lib/auth.server";
import { newItemAction, PAGE_EDITOR } from "~/lib/editor.server";
import { EMPTY_PAGE_FORM } from "#domain/page.ts";
import type { Route } from "./+types/page-new";

/** Every signed-in writer may make pages, as posts. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin({ request, context });
  return null;
}

export const action = newItemAction(PAGE_EDITOR);

export default function AdminPageNew({ actionData }: Route.ComponentProps) {
  return (
    <>
      <title>New Page · Admin</title>
      <h1 className="mb-6 text-2xl font-bold tracking-tight sm:text-3xl">New Page</h1>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PageForm
          initialValues={actionData?.values ?? EMPTY_PAGE_FORM}
          result={actionData}
          submitLabel="Create Page"
          draft
        />
      </div>
    </>
  );
}
