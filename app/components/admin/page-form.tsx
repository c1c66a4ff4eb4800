import { Form } from "react-router";
import { EditorActions } from "~/components/admin/editor/editor-actions";
import { ItemFields } from "~/components/admin/editor/item-fields";
import { CheckboxField, FormError, TextAreaField } from "~/components/ui/field";
import { useValidatedForm } from "~/lib/forms";
import type { FormResult } from "#domain/forms.ts";
import { PAGE_LIMITS, pageDraftForm, type PageField, pageForm, type PageFormValues } from "#domain/page.ts";

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
  /** Whether "Save draft" is offered: while the page is not published (a draft save unpublishes). */
  draft: boolean;
}

const DRAFT_RULES = { draft: pageDraftForm };

/**
 * A page's form: the post form's look and body editor (toolbar, preview, images, format),
 * without category, tags, cover, comments or email. A plain form that saves without JavaScript.
 */
export function PageForm({ initialValues, result, submitLabel, pageId, draft }: PageFormProps) {
  const form = useValidatedForm(pageForm, { id: "page", result, intents: DRAFT_RULES });

  return (
    <Form method="post" {...form.props} className="space-y-6">
      <FormError message={form.formError} />

      <ItemFields kind="page" id={pageId} field={form.field} initialValues={initialValues} />

      <TextAreaField
        {...form.field("description")}
        label="Meta description (optional)"
        hint="What search engines and shared links show; blank: the page's opening words."
        rows={2}
        maxLength={PAGE_LIMITS.description}
        defaultValue={initialValues.description}
      />

      <CheckboxField {...form.field("published")} label="Publish this page" defaultChecked={initialValues.published} />

      <CheckboxField
        {...form.field("showLastUpdated")}
        label="Show the date it was last updated"
        defaultChecked={initialValues.showLastUpdated}
      />

      <EditorActions
        kind="page"
        submitLabel={submitLabel}
        creating={pageId === undefined}
        draft={draft}
        cancelTo="/admin/pages"
      />
    </Form>
  );
}
