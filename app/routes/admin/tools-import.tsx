import { Link } from "react-router";
import { ImportForm, ImportReportView } from "~/components/admin/import-form";
import { textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { importUpload } from "~/lib/import-upload.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/tools-import";

/**
 * The upload lives on the Tools page; opened directly, this page shows the same form. (No
 * redirect: the loader also runs after the action, and would hide the report.)
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  const categories = await context.get(appContext).services.categories.list();
  return { categories: categories.map((category) => category.name) };
}

/** The import without JavaScript: the answer is this page, with the report or the form and why it was refused. */
export function action({ request, context }: Route.ActionArgs) {
  return importUpload({ request, context });
}

export default function ToolsImport({ loaderData, actionData }: Route.ComponentProps) {
  const success = actionData && "report" in actionData ? actionData : undefined;
  const failure = actionData && "errors" in actionData ? actionData : undefined;
  return (
    <>
      <title>{success ? "Import report · Admin" : "Import · Admin"}</title>
      <p className="text-sm">
        <Link to="/admin/tools" className={textLinkStyles}>
          Back to tools
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">Import</h1>
      <div className="mt-6 max-w-2xl">
        {success ? (
          <ImportReportView result={success} />
        ) : (
          <ImportForm result={failure} categories={loaderData.categories} />
        )}
      </div>
    </>
  );
}
