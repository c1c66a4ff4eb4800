import { type ReactNode, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { CoverImage } from "~/components/ui/cover-image";
import { CATEGORIES } from "~/lib/categories";
import { collectFieldErrors, type FieldErrors } from "~/lib/forms";
import {
  POST_LIMITS,
  postFormValues,
  type PostFormValues,
  type PostInput,
  postSchema,
  uniqueNonEmptyTags,
} from "~/schemas/post";

export type PostField = keyof PostInput;

interface PostFormProps {
  initialValues: PostFormValues;
  /** From the action: the same schema's verdict, or why saving failed. */
  serverErrors?: FieldErrors<PostField>;
  formError?: string;
  submitLabel: string;
}

const FIELD_ORDER: PostField[] = ["title", "content", "excerpt", "author", "coverImage", "category", "tags"];
const INPUT_NAME: Partial<Record<PostField, string>> = { tags: "newTags" };

const inputClass =
  "mt-1 block w-full rounded-md border bg-white px-3 py-2 text-base shadow-sm focus:ring-2 focus:outline-none sm:text-sm dark:bg-slate-950";
const inputBorder = (invalid: boolean) =>
  invalid
    ? "border-red-500 focus:border-red-500 focus:ring-red-500 dark:border-red-500"
    : "border-slate-300 focus:border-indigo-500 focus:ring-indigo-500 dark:border-slate-700";

export function PostForm({ initialValues, serverErrors, formError, submitLabel }: PostFormProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod === "POST";
  const [errors, setErrors] = useState<FieldErrors<PostField>>(serverErrors ?? {});
  const [serverErrorsSeen, setServerErrorsSeen] = useState(serverErrors);
  if (serverErrors !== serverErrorsSeen) {
    setServerErrorsSeen(serverErrors);
    setErrors(serverErrors ?? {});
  }
  const [coverImage, setCoverImage] = useState(initialValues.coverImage);
  const [tags, setTags] = useState(initialValues.tags);
  const [newTag, setNewTag] = useState("");

  const clearError = (field: PostField) =>
    setErrors((current) => {
      if (!current[field]) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });

  const addTags = () => {
    setTags((current) => uniqueNonEmptyTags([...current, ...newTag.split(",")]));
    setNewTag("");
    clearError("tags");
  };

  const validateBeforeSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const result = postSchema.safeParse(postFormValues(new FormData(event.currentTarget)));
    if (result.success) return;
    event.preventDefault();
    const found = collectFieldErrors<PostField>(result.error);
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) {
      const element = event.currentTarget.elements.namedItem(INPUT_NAME[first] ?? first);
      if (element instanceof HTMLElement) element.focus();
    }
  };

  const fieldProps = (field: PostField) => ({
    id: `post-${field}`,
    name: field,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `post-${field}-error` : undefined,
    className: `${inputClass} ${inputBorder(Boolean(errors[field]))}`,
  });

  return (
    <Form method="post" noValidate onSubmit={validateBeforeSubmit} className="space-y-6">
      {formError ? (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          {formError}
        </p>
      ) : null}

      <Field field="title" label="Title" error={errors.title}>
        <input
          type="text"
          maxLength={POST_LIMITS.title}
          defaultValue={initialValues.title}
          onChange={() => clearError("title")}
          {...fieldProps("title")}
        />
      </Field>

      <Field
        field="content"
        label="Content"
        hint="HTML is allowed; scripts and styles are removed."
        error={errors.content}
      >
        <textarea
          rows={12}
          defaultValue={initialValues.content}
          onChange={() => clearError("content")}
          {...fieldProps("content")}
          className={`${fieldProps("content").className} font-mono`}
        />
      </Field>

      <Field field="excerpt" label="Excerpt" error={errors.excerpt}>
        <textarea
          rows={2}
          maxLength={POST_LIMITS.excerpt}
          defaultValue={initialValues.excerpt}
          onChange={() => clearError("excerpt")}
          {...fieldProps("excerpt")}
        />
      </Field>

      <div className="grid gap-6 sm:grid-cols-2">
        <Field field="author" label="Author" error={errors.author}>
          <input
            type="text"
            autoComplete="name"
            maxLength={POST_LIMITS.author}
            defaultValue={initialValues.author}
            onChange={() => clearError("author")}
            {...fieldProps("author")}
          />
        </Field>

        <Field field="category" label="Category" error={errors.category}>
          <select
            defaultValue={initialValues.category}
            onChange={() => clearError("category")}
            {...fieldProps("category")}
          >
            <option value="">Select a category</option>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <Field field="coverImage" label="Cover image URL" error={errors.coverImage}>
        <input
          type="url"
          inputMode="url"
          placeholder="https://…"
          maxLength={POST_LIMITS.coverImage}
          defaultValue={initialValues.coverImage}
          onChange={(event) => {
            setCoverImage(event.currentTarget.value.trim());
            clearError("coverImage");
          }}
          {...fieldProps("coverImage")}
        />
      </Field>
      <figure>
        <figcaption className="text-sm font-medium text-slate-700 dark:text-slate-300">Cover preview</figcaption>
        {coverImage.startsWith("http") ? (
          <CoverImage
            src={coverImage}
            alt="Cover image preview"
            fallbackText="Invalid Image URL"
            loading="eager"
            className="mt-2 aspect-[2/1] w-full max-w-md rounded-lg border border-slate-200 dark:border-slate-800"
          />
        ) : (
          <div className="mt-2 flex aspect-[2/1] w-full max-w-md items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
            Enter an image URL to see it here
          </div>
        )}
      </figure>

      <Field
        field="tags"
        inputId="post-newTags"
        label="Tags"
        hint="Press Enter or Add for each tag; several at once can be separated by commas."
        error={errors.tags}
      >
        <div className="mt-1 flex gap-2">
          <input
            id="post-newTags"
            name="newTags"
            type="text"
            maxLength={POST_LIMITS.tag * POST_LIMITS.tags}
            value={newTag}
            onChange={(event) => {
              setNewTag(event.currentTarget.value);
              clearError("tags");
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                addTags();
              }
            }}
            aria-invalid={errors.tags ? true : undefined}
            aria-describedby={`post-tags-hint${errors.tags ? " post-tags-error" : ""}`}
            className={`${inputClass} ${inputBorder(Boolean(errors.tags))} mt-0`}
          />
          <button
            type="button"
            onClick={addTags}
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
          >
            Add
          </button>
        </div>
      </Field>
      {tags.length > 0 ? (
        <ul aria-label="Added tags" className="-mt-3 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-100 py-0.5 pr-1 pl-3 text-sm text-indigo-900 dark:bg-indigo-900/60 dark:text-indigo-100"
            >
              {tag}
              <input type="hidden" name="tags" value={tag} />
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                onClick={() => setTags((current) => current.filter((existing) => existing !== tag))}
                className="rounded-full px-1.5 leading-5 hover:bg-indigo-200 dark:hover:bg-indigo-800"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <div className="flex items-center gap-2">
        <input
          id="post-published"
          name="published"
          type="checkbox"
          defaultChecked={initialValues.published}
          className="h-4 w-4 rounded border-slate-300 accent-indigo-600"
        />
        <label htmlFor="post-published" className="text-sm font-medium">
          Publish this post
        </label>
      </div>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
        <button
          type="submit"
          disabled={saving}
          className="rounded-md bg-indigo-600 px-5 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:opacity-70 dark:focus-visible:ring-offset-slate-950"
        >
          {saving ? "Saving…" : submitLabel}
        </button>
        <Link to="/admin/posts" className="text-sm font-medium text-slate-700 hover:underline dark:text-slate-300">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

interface FieldProps {
  field: PostField;
  label: string;
  inputId?: string;
  hint?: string;
  error: string | undefined;
  children: ReactNode;
}

function Field({ field, label, inputId = `post-${field}`, hint, error, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`post-${field}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`post-${field}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
