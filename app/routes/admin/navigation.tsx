import { data, Form, Outlet, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { NavigationAddForm } from "~/components/admin/navigation-add-form";
import { describeNavigationTarget, NavigationMenuRows } from "~/components/admin/navigation-menu";
import { Notice, Panel } from "~/components/admin/panel";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { FormError } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { NavigationMenu } from "#domain/navigation.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/navigation";

const LOAD_FAILED_MESSAGE = "Failed to load the menus. Please try again.";

const MENUS: { menu: NavigationMenu; title: string; hint: string }[] = [
  { menu: "header", title: "Header", hint: "The links at the top of every page, and in the phone's menu." },
  {
    menu: "footer",
    title: "Footer",
    hint: "Links to categories show under Categories, the others under Site, each in this order.",
  },
];

/** The owner's alone, like Settings: the menus frame every reader's page. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const { services, site } = context.get(appContext);
    const [pages, navigation, categories] = await Promise.all([
      services.pages.listPageChoices(),
      services.navigation.menus(site),
      services.categories.list(),
    ]);
    const byId = new Map(pages.map((page) => [page.id, page]));
    const rows = (menu: NavigationMenu) =>
      navigation[menu].map(({ id, label, target }) => ({
        id,
        label,
        target: describeNavigationTarget(target, byId, site),
      }));
    const flash = await takeFlash(request);
    return data(
      {
        menus: { header: rows("header"), footer: rows("footer") },
        edited: site.navigation !== null,
        pages,
        categories: categories.map((category) => category.name),
        notice: flash.message,
      },
      { headers: flash.headers },
    );
  },
);

/**
 * The Add link forms post to navigation-add.tsx, the row buttons, drags and Reset to
 * navigation-change.tsx; a refusal renders this page at the child's address, with its message.
 */
export default function Navigation({ loaderData }: Route.ComponentProps) {
  const { menus, edited, pages, categories, notice } = loaderData;
  const busy = useNavigation().state !== "idle";
  const added = useRoute("routes/admin/navigation-add")?.actionData;
  const changed = useRoute("routes/admin/navigation-change")?.actionData;
  return (
    <>
      <title>Navigation · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Navigation</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">
        The links in the header and the footer of the site. Readers see a change at once. A link to a page follows the
        page&rsquo;s address, and is left out while the page is a draft.
      </p>
      <div className="mt-6 space-y-4">
        {/* A refusal that follows a notice is not a reload, so the notice is hidden by hand. */}
        <Notice message={added || changed ? undefined : notice} />
        <FormError message={changed?.formError} />
      </div>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        {MENUS.map(({ menu, title, hint }) => (
          <Panel key={menu} id={`navigation-${menu}-heading`} title={title}>
            <p className="text-sm text-slate-600 dark:text-slate-400">{hint}</p>
            <NavigationMenuRows menu={menu} title={title} rows={menus[menu]} busy={busy} />
            <NavigationAddForm
              menu={menu}
              pages={pages}
              categories={categories}
              full={menus[menu].length}
              result={added?.values.menu === menu ? added : undefined}
            />
          </Panel>
        ))}
      </div>
      <Form method="post" action="/admin/navigation/change" className="mt-8">
        <input type="hidden" name="intent" value="reset" />
        <button
          type="submit"
          disabled={busy || !edited}
          className={`${buttonStyles.secondary} disabled:cursor-not-allowed disabled:opacity-60`}
        >
          Reset to defaults
        </button>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {edited
            ? "Puts back the header and footer links the site came with."
            : "These are the links the site came with."}
        </p>
      </Form>
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
