import { data, Form, Outlet, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { CategoryRows } from "~/components/admin/category-rows";
import { Notice, Panel } from "~/components/admin/panel";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { requireAdmin } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { addCategoryForm, CATEGORY_LIMITS } from "#domain/categories.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/categories";

const LOAD_FAILED_MESSAGE = "Failed to load categories. Please try again.";

/** Every writer's, like Pages: an editor files every post under one. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const [categories, flash] = await Promise.all([services.categories.list(), takeFlash(request)]);
    return data({ categories, notice: flash.message }, { headers: flash.headers });
  },
);

/**
 * The Add form posts to categories-add.tsx, each row's forms to categories-change.tsx; a refusal
 * renders this page at the child's address, with its message. Everything works without JavaScript.
 */
export default function Categories({ loaderData }: Route.ComponentProps) {
  const { categories, notice } = loaderData;
  const busy = useNavigation().state !== "idle";
  const added = useRoute("routes/admin/categories-add")?.actionData;
  const changed = useRoute("routes/admin/categories-change")?.actionData;
  const form = useValidatedForm(addCategoryForm, { id: "category-add", result: added });
  return (
    <>
      <title>Categories · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Categories</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">
        Every post is filed under one category. Readers see them on /categories, in the footer and on each post, in this
        order. A renamed category keeps its old address as a redirect; a deleted one sends its posts, and its address,
        to the category you choose.
      </p>
      <div className="mt-6 space-y-4">
        <Notice message={added || changed ? undefined : notice} />
        <FormError message={changed?.formError} />
      </div>
      <div className="mt-6 grid gap-6 xl:grid-cols-[2fr_1fr]">
        <Panel id="categories-heading" title="Your categories">
          <CategoryRows categories={categories} busy={busy} />
        </Panel>
        <Panel id="category-add-heading" title="Add a category">
          <Form method="post" action="/admin/categories/add" {...form.props} className="space-y-4">
            <FormError message={form.formError} />
            <TextField
              {...form.field("name")}
              label="Name"
              maxLength={CATEGORY_LIMITS.name}
              defaultValue={added?.values.name ?? ""}
              hint="Its address is the name in lower case, such as /category/web-design."
            />
            <TextAreaField
              {...form.field("description")}
              label="Description (optional)"
              rows={3}
              maxLength={CATEGORY_LIMITS.description}
              defaultValue={added?.values.description ?? ""}
              hint="Shown on the category's page, and used by search engines and its feed."
            />
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Add category
            </button>
          </Form>
        </Panel>
      </div>
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
