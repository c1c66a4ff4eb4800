import { useMemo, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Field, FormError, SelectField, TextField } from "~/components/ui/field";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import type { FormResult } from "#domain/forms.ts";
import {
  ADDABLE_TARGET_KINDS,
  addNavigationLinkForm,
  addNavigationLinkFormFor,
  NAVIGATION_LIMITS,
  type NavigationMenu,
} from "#domain/navigation.ts";
import type { NavigationPageChoice } from "./navigation-menu";

/** The Add link form's choices of target, in the order offered. */
const ADDABLE_TARGET_LABELS: Record<(typeof ADDABLE_TARGET_KINDS)[number], string> = {
  page: "A page",
  category: "A category",
  blog: "The blog (all posts)",
  home: "The home page",
  categories: "The categories list",
  "about-link": "The About link in Settings",
  "source-link": "The source code link in Settings",
  url: "Another address (URL)",
};

type AddLinkValues = ReturnType<typeof addNavigationLinkForm.read>;

const EMPTY: Omit<AddLinkValues, "menu"> = { label: "", kind: "page", page: "", category: "", url: "" };

/**
 * Adds a link at the end of one menu. Without JavaScript every target field shows, each
 * saying when it counts; with it, only the one the chosen kind needs.
 */
export function NavigationAddForm({
  menu,
  pages,
  categories,
  full,
  result,
}: {
  menu: NavigationMenu;
  pages: NavigationPageChoice[];
  /** The writer's categories, in their order. */
  categories: readonly string[];
  /** How many links the menu has now. */
  full: number;
  result: FormResult<string, AddLinkValues> | undefined;
}) {
  const id = `navigation-${menu}-add`;
  const definition = useMemo(() => addNavigationLinkFormFor(categories), [categories]);
  const form = useValidatedForm(definition, { id, result });
  const values = { ...EMPTY, ...result?.values };
  const [kind, setKind] = useState(values.kind);
  const hydrated = useHydrated();
  const busy = useNavigation().state !== "idle";
  const shows = (needed: string) => !hydrated || kind === needed;

  if (full >= NAVIGATION_LIMITS.items) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        This menu has {NAVIGATION_LIMITS.items} links, the most it holds. Remove one to add another.
      </p>
    );
  }
  return (
    <Form
      method="post"
      action="/admin/navigation/add"
      {...form.props}
      // Named with its menu too: the page has one per menu.
      aria-labelledby={`${id}-heading navigation-${menu}-heading`}
      className="space-y-4 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 id={`${id}-heading`} className="font-semibold">
        Add link
      </h3>
      <FormError message={form.formError} />
      <input type="hidden" name="menu" value={menu} />
      <TextField
        {...form.field("label")}
        label="Label"
        defaultValue={values.label}
        maxLength={NAVIGATION_LIMITS.label}
      />
      <Field {...form.field("kind")} label="Links to">
        {(control) => (
          <select
            {...control}
            name="kind"
            defaultValue={values.kind}
            onChange={(event) => {
              control.onChange();
              setKind(event.currentTarget.value);
            }}
            className={inputStyles}
          >
            {ADDABLE_TARGET_KINDS.map((option) => (
              <option key={option} value={option}>
                {ADDABLE_TARGET_LABELS[option]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {shows("page") ? (
        <SelectField
          {...form.field("page")}
          label="Page"
          hint={hydrated ? undefined : "When it links to a page."}
          defaultValue={values.page}
          placeholder="Choose a page"
          options={pages.map((page) => ({
            value: page.id,
            label: page.published ? page.title : `${page.title} (draft)`,
          }))}
        />
      ) : null}
      {shows("category") ? (
        <SelectField
          {...form.field("category")}
          label="Category"
          hint={hydrated ? undefined : "When it links to a category."}
          defaultValue={values.category}
          placeholder="Choose a category"
          options={categories}
        />
      ) : null}
      {shows("url") ? (
        <TextField
          {...form.field("url")}
          label="URL"
          hint={
            hydrated ? "Starts with http:// or https://." : "When it links to another address; http:// or https://."
          }
          type="url"
          defaultValue={values.url}
        />
      ) : null}
      <button type="submit" disabled={busy} className={buttonStyles.primary}>
        Add link
      </button>
    </Form>
  );
}
