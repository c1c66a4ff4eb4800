import type { ReactNode } from "react";
import { TextField } from "~/components/ui/field";
import type { FieldState } from "~/lib/forms";
import { PAGE_LIMITS } from "#domain/page.ts";
import { POST_LIMITS } from "#domain/post.ts";
import { BodyFields } from "./body-fields";
import type { EditedItem } from "./edited-item";

const LIMITS = { post: POST_LIMITS, page: PAGE_LIMITS };

const SLUG_HINTS = {
  post: "The post's address: /blog/your-slug. Leave blank to make it from the title.",
  page: "The page's address: /your-slug. Leave blank to make it from the title.",
};

interface ItemFieldsProps {
  kind: EditedItem["kind"];
  /** The saved post or page, so the editor can autosave it; absent while creating one. */
  id?: string;
  /** The form's fields (form.field). */
  field: (name: "title" | "slug" | "format" | "content") => FieldState;
  initialValues: { title: string; slug: string; format: string; content: string };
  /** What this kind has between its slug and its body. */
  children?: ReactNode;
}

/** What posts and pages both open their form with: the title, its slug and (after `children`) the body. */
export function ItemFields({ kind, id, field, initialValues, children }: ItemFieldsProps) {
  const limits = LIMITS[kind];
  return (
    <>
      <TextField
        {...field("title")}
        label="Title"
        mandatory
        type="text"
        maxLength={limits.title}
        defaultValue={initialValues.title}
      />

      <TextField
        {...field("slug")}
        label="Slug"
        hint={SLUG_HINTS[kind]}
        type="text"
        maxLength={limits.slug}
        defaultValue={initialValues.slug}
      />
      {children}
      <BodyFields
        fields={{ format: field("format"), content: field("content") }}
        initialValues={initialValues}
        item={id ? { kind, id } : undefined}
      />
    </>
  );
}
