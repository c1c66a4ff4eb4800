import { Form, Link, useNavigation } from "react-router";
import { BodyFields } from "~/components/admin/editor/body-fields";
import { CheckboxField, FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import type { FormResult } from "#domain/forms.ts";
import { PAGE_LIMITS, type PageField, pageForm, type PageFormValues } from "#domain/page.ts";

export type PageFormResult = FormResult<PageField, PageFormValues>;

/** What the form says when the database could not take the save. */
export const SAVE_PAGE_FAILED_MESSAGE = "Failed to save page. Please try again.";

interface PageFormProps {
  initialValues: PageFormValues;
  /** From the action: the same schema's verdict, or why saving failed. */
  result: PageFormResult | undefined;
  submitLabel: string;
  /** The page being edited, so the editor can autosave it; absent while creating one. */
  pageId?: string;
}

/**
 * A page's form: the post form's look and body editor (toolbar, preview, images, format),
 * without category, tags, cover, comments or email. A plain form that saves without JavaScript.
 */
export function PageForm({ initialValues, result, submitLabel, pageId }: PageFormProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod === "POST";
  const form = useValidatedForm(pageForm, { id: "page", result });

  return (
    <Form method="post" {...form.props} className="space-y-6">
      <FormError message={form.formError} />

      <TextField
        {...form.field("title")}
        label="Title"
        name="title"
        type="text"
        maxLength={PAGE_LIMITS.title}
        defaultValue={initialValues.title}
      />

      <TextField
        {...form.field("slug")}
        label="Slug"
        hint="The page's address: /your-slug. Leave blank to make it from the title."
        name="slug"
        type="text"
        maxLength={PAGE_LIMITS.slug}
        defaultValue={initialValues.slug}
      />

      <BodyFields
        fields={{ format: form.field("format"), content: form.field("content") }}
        initialValues={initialValues}
        item={pageId ? { kind: "page", id: pageId } : undefined}
      />

      <TextAreaField
        {...form.field("description")}
        label="Meta description (optional)"
        hint="What search engines and shared links show; blank: the page's opening words."
        name="description"
        rows={2}
        maxLength={PAGE_LIMITS.description}
        defaultValue={initialValues.description}
      />

      <CheckboxField
        {...form.field("published")}
        label="Publish this page"
        name="published"
        defaultChecked={initialValues.published}
      />

      <CheckboxField
        {...form.field("showLastUpdated")}
        label="Show the date it was last updated"
        name="showLastUpdated"
        defaultChecked={initialValues.showLastUpdated}
      />

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
        <button type="submit" disabled={saving} className={buttonStyles.primary}>
          {saving ? "Saving…" : submitLabel}
        </button>
        <Link to="/admin/pages" className="text-sm font-medium text-slate-700 hover:underline dark:text-slate-300">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
