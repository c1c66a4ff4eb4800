import { data } from "react-router";
import { DemoRemoval, describeDemoRemoval } from "~/components/admin/demo-removal";
import { ImportForm } from "~/components/admin/import-form";
import { buttonStyles } from "~/components/ui/styles";
import { actorOf, requireOwner } from "~/lib/auth.server";
import { readFormData } from "~/lib/forms.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { formText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/tools";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load the tools. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const { services } = context.get(appContext);
    const [{ removable, kept }, categories] = await Promise.all([services.demo.survey(), services.categories.list()]);
    return {
      categories: categories.map((category) => category.name),
      demo: { posts: removable.length, comments: removable.reduce((sum, post) => sum + post.comments, 0), kept },
      asking: new URL(request.url).searchParams.has("remove-demo"),
    };
  },
);

/** "Remove the demo content", confirmed: only what the demo wrote and nobody changed (docs/decisions/0025). */
export const action = withRouteErrors(
  { DATABASE_UNAVAILABLE: "The demo content could not be removed. Please try again." },
  async ({ request, context }: Route.ActionArgs) => {
    const owner = requireOwner({ request, context });
    if (formText(await readFormData(request), "intent") !== "remove-demo") {
      throw data({ message: "Unknown action" }, { status: 400 });
    }
    const removed = await context.get(appContext).services.demo.remove(actorOf(owner));
    return { demoRemoved: describeDemoRemoval(removed) };
  },
);

export default function Tools({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Tools · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Tools</h1>
      <section className="mt-6 max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <h2 className="text-lg font-semibold">Export</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          One JSON file with every post (drafts too), page, comment, setting and admin (without passwords). It
          re-imports into another Inkwell blog with <code>npm run blog -- import</code>. The .zip holds the same file,
          every uploaded image at its own address (<code>media/…</code>), and the logo and site icon.
        </p>
        {/* A plain link: the browser downloads the stream itself, with or without JavaScript. */}
        <div className="flex flex-wrap gap-3">
          <a href="/admin/tools/export" download className={buttonStyles.primary}>
            Download export
          </a>
          <a href="/admin/tools/export.zip" download className={buttonStyles.secondary}>
            Download export with images (.zip)
          </a>
        </div>
      </section>
      <section className="mt-6 max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <h2 className="text-lg font-semibold">Import</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Moving in: posts, pages, comments and tags from an Inkwell, Ghost or WordPress export. Bodies are sanitised,
          drafts stay drafts, and importing the same file again creates nothing twice. The whole file imports, or
          nothing does.
        </p>
        <ImportForm result={undefined} categories={loaderData.categories} />
      </section>
      <DemoRemoval left={loaderData.demo} asking={loaderData.asking} result={actionData?.demoRemoved} />
    </>
  );
}
