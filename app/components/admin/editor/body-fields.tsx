import { useState } from "react";
import { BodyImageUploader } from "~/components/admin/image-upload";
import { Field } from "~/components/ui/field";
import { inputStyles } from "~/components/ui/styles";
import type { FieldState } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import { POST_FORMATS, type PostFormat } from "#domain/post.ts";
import { ContentEditor } from "./content-editor";
import type { EditedItem } from "./edited-item";

const FORMAT_LABELS: Record<PostFormat, string> = { markdown: "Markdown", html: "HTML" };

const CONTENT_HINTS: Record<PostFormat, string> = {
  markdown:
    "Markdown: **bold**, _italic_, ## headings, lists, [links](https://…), ```code```, tables, footnotes. HTML is allowed; scripts and styles are removed.",
  html: "HTML is allowed; scripts and styles are removed.",
};

interface BodyFieldsProps {
  /** The form's `format` and `content` fields (form.field(…)). */
  fields: { format: FieldState; content: FieldState };
  initialValues: { format: string; content: string };
  /** The saved post or page, so the editor can autosave it; absent while creating one. */
  item?: EditedItem;
}

/**
 * A body as posts and pages both have it: the format picker, the editor (toolbar, preview,
 * autosave) and the image upload, under the form's own `format` and `content` fields.
 */
export function BodyFields({ fields, initialValues, item }: BodyFieldsProps) {
  const [format, setFormat] = useState<PostFormat>(initialValues.format === "html" ? "html" : "markdown");
  const hydrated = useHydrated();
  return (
    <>
      <Field {...fields.format} label="Format">
        {(control) => (
          <select
            {...control}
            name="format"
            value={format}
            onChange={(event) => {
              setFormat(event.currentTarget.value === "html" ? "html" : "markdown");
              control.onChange();
            }}
            className={`${inputStyles} max-w-xs`}
          >
            {POST_FORMATS.map((option) => (
              <option key={option} value={option}>
                {FORMAT_LABELS[option]}
              </option>
            ))}
          </select>
        )}
      </Field>

      <Field {...fields.content} label="Content" mandatory hint={CONTENT_HINTS[format]}>
        {(control) => (
          <ContentEditor control={control} defaultValue={initialValues.content} format={format} item={item} />
        )}
      </Field>
      {hydrated ? <BodyImageUploader textareaId={fields.content.id} format={format} /> : null}
    </>
  );
}
