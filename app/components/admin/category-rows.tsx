import { Form } from "react-router";
import { EmptyList } from "~/components/admin/admin-list";
import { MoveButtons } from "~/components/admin/move-buttons";
import { inputStyles } from "~/components/ui/styles";
import { CATEGORY_LIMITS, type CategoryRecord, categoryPath } from "#domain/categories.ts";

const CHANGE_ACTION = "/admin/categories/change";

const smallButtonStyles =
  "rounded-md border border-slate-300 px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800";
const summaryStyles = "cursor-pointer text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300";

/** The fields that say which row a form changes. */
function RowFields({ intent, category }: { intent: string; category: CategoryRecord }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="category" value={category.id} />
    </>
  );
}

/**
 * The writer's categories in their order. Rename, Describe and Delete open as <details>, Move up and
 * Move down are buttons: each is a small form that works without JavaScript.
 */
export function CategoryRows({ categories, busy }: { categories: CategoryRecord[]; busy: boolean }) {
  if (categories.length === 0) return <EmptyList className="p-4">No categories yet.</EmptyList>;
  return (
    <ol
      aria-label="Categories"
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
    >
      {categories.map((category, index) => {
        const others = categories.filter((other) => other.id !== category.id);
        const field = (name: string) => `category-${category.id}-${name}`;
        return (
          <li
            key={category.id}
            data-category-row={category.slug}
            className="flex flex-wrap items-start gap-3 px-3 py-2"
          >
            <div className="min-w-0 grow basis-64 space-y-1">
              <p className="font-medium">{category.name}</p>
              <p className="text-sm break-words text-slate-600 dark:text-slate-400">
                {categoryPath(category.name)}
                {category.description ? ` · ${category.description}` : ""}
              </p>
              <details>
                <summary className={summaryStyles}>
                  Rename<span className="sr-only"> {category.name}</span>
                </summary>
                <Form method="post" action={CHANGE_ACTION} className="mt-2 flex flex-wrap items-center gap-2">
                  <RowFields intent="rename" category={category} />
                  <label htmlFor={field("name")} className="sr-only">
                    New name for {category.name}
                  </label>
                  <input
                    id={field("name")}
                    name="name"
                    defaultValue={category.name}
                    required
                    maxLength={CATEGORY_LIMITS.name}
                    className={`${inputStyles} max-w-xs py-1`}
                  />
                  <button type="submit" disabled={busy} className={smallButtonStyles}>
                    Save name
                  </button>
                </Form>
              </details>
              <details>
                <summary className={summaryStyles}>
                  Describe<span className="sr-only"> {category.name}</span>
                </summary>
                <Form method="post" action={CHANGE_ACTION} className="mt-2 space-y-2">
                  <RowFields intent="describe" category={category} />
                  <label htmlFor={field("description")} className="sr-only">
                    Description of {category.name}
                  </label>
                  <textarea
                    id={field("description")}
                    name="description"
                    rows={2}
                    defaultValue={category.description}
                    maxLength={CATEGORY_LIMITS.description}
                    className={inputStyles}
                  />
                  <button type="submit" disabled={busy} className={smallButtonStyles}>
                    Save description
                  </button>
                </Form>
              </details>
              {others.length > 0 ? (
                <details>
                  <summary className={summaryStyles}>
                    Delete<span className="sr-only"> {category.name}</span>
                  </summary>
                  <Form method="post" action={CHANGE_ACTION} className="mt-2 flex flex-wrap items-center gap-2">
                    <RowFields intent="delete" category={category} />
                    <label htmlFor={field("move-to")} className="text-sm">
                      Move its posts to
                    </label>
                    <select
                      id={field("move-to")}
                      name="moveTo"
                      required
                      defaultValue=""
                      className={`${inputStyles} max-w-xs py-1`}
                    >
                      <option value="" disabled>
                        Choose a category
                      </option>
                      {others.map((other) => (
                        <option key={other.id} value={other.id}>
                          {other.name}
                        </option>
                      ))}
                    </select>
                    <button type="submit" disabled={busy} className={smallButtonStyles}>
                      Delete {category.name}
                    </button>
                  </Form>
                </details>
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  The only category cannot be deleted: add another first.
                </p>
              )}
            </div>
            <MoveButtons
              action={CHANGE_ACTION}
              fields={{ intent: "move", category: category.id }}
              index={index}
              count={categories.length}
              name={category.name}
              busy={busy}
              buttonClassName={smallButtonStyles}
            />
          </li>
        );
      })}
    </ol>
  );
}
