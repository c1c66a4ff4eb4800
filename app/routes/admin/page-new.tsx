import { PageForm, SAVE_PAGE_FAILED_MESSAGE } from "~/components/admin/page-form";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission } from "~/lib/forms.server";
import { refuseEditorForm } from "~/lib/post-form.server";
import { answerDomainErrors } from "~/lib/route-errors.server";
import { EMPTY_PAGE_FORM, pageForm } from "#domain/page.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/page-new";

/** Every signed-in writer may make pages, as posts. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin({ request, context });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const submission = await parseSubmission(request, pageForm);
  if (!submission.ok) return submission.response;
  const refusal = {
    messages: { DATABASE_UNAVAILABLE: SAVE_PAGE_FAILED_MESSAGE },
    answer: refuseEditorForm(submission.values),
  };
  return answerDomainErrors(context, refusal, async () => {
    await services.pages.createPage(submission.input, writerOf(admin));
    return redirectWithFlash(request, "/admin/pages", "page-created");
  });
}

export default function AdminPageNew({ actionData }: Route.ComponentProps) {
  return (
    <>
      <title>New Page · Admin</title>
      <h1 className="mb-6 text-2xl font-bold tracking-tight sm:text-3xl">New Page</h1>
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PageForm initialValues={actionData?.values ?? EMPTY_PAGE_FORM} result={actionData} submitLabel="Create Page" />
      </div>
    </>
  );
}
