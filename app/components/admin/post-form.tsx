import { useState } from "react";
import { Form } from "react-router";
import { EditorActions } from "~/components/admin/editor/editor-actions";
import { ItemFields } from "~/components/admin/editor/item-fields";
import { ScheduleInput } from "~/components/admin/editor/schedule-field";
import { CheckboxField, Field, FormError, SelectField, TextAreaField, TextField } from "~/components/ui/field";
import { CoverImage } from "~/components/ui/cover-image";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { CoverImageUploader } from "~/components/admin/image-upload";
import { useValidatedForm } from "~/lib/forms";
import { setInputValue } from "~/lib/insert-at-cursor";
import { useHydrated } from "~/lib/use-hydrated";
import { isOwnMediaPath } from "#domain/media.ts";
import type { FormResult } from "#domain/forms.ts";
import {
  POST_LIMITS,
  postDraftForm,
  type PostField,
  postForm,
  type PostNewsletter,
  type PostFormValues,
  uniqueNonEmptyTags,
} from "#domain/post.ts";

export type PostFormResult = FormResult<PostField, PostFormValues>;

interface PostFormProps {
  initialValues: PostFormValues;
  /** From the action: the same schema's verdict, or why saving failed. */
  result: PostFormResult | undefined;
  submitLabel: string;
  /** The post being edited, so the editor can autosave it; absent while creating one. */
  postId?: string;
  /** Told of every edit, and of the submit (`now`), with the form as it stands. */
  onEdit?: (form: HTMLFormElement, options?: { now: boolean }) => void;
  /** Whether email is set up (SMTP_URL), and the post's email so far: the box is offered only before its first publication. */
  email: { on: boolean; newsletter: PostNewsletter };
  /** Whether "Save draft" is offered: while the post is not published (a draft save unpublishes). */
  draft: boolean;
  /** The writer's categories, in their order (Admin → Categories). */
  categories: readonly string[];
}

const DRAFT_RULES = { draft: postDraftForm };

/** Why the email box is disabled, or what ticking it does. */
function emailHint({ on, newsletter }: PostFormProps["email"]): string {
  if (!on)
    return "Email is not set up yet: the owner sets up the mail server under Settings → Email, then posts can be emailed to subscribers.";
  if (newsletter === "closed")
    return "This post has been public already: a post is emailed only when it is first published.";
  return "Sent once, to every confirmed subscriber, when the post is first public: now, or at its scheduled time.";
}

export function PostForm({
  initialValues,
  result,
  submitLabel,
  postId,
  onEdit,
  email,
  draft,
  categories,
}: PostFormProps) {
  const form = useValidatedForm(postForm, { id: "post", result, intents: DRAFT_RULES });
  const [coverImage, setCoverImage] = useState(initialValues.coverImage);
  const [tags, setTags] = useState(initialValues.tags);
  const [newTag, setNewTag] = useState("");
  const hydrated = useHydrated();

  const addTags = () => {
    setTags((current) => uniqueNonEmptyTags([...current, ...newTag.split(",")]));
    setNewTag("");
    form.clearError("tags");
  };

  return (
    <Form
      method="post"
      {...form.props}
      // React's change event fires on every keystroke, and for selects and checkboxes.
      onChange={(event) => onEdit?.(event.currentTarget)}
      onSubmitCapture={(event) => onEdit?.(event.currentTarget, { now: true })}
      className="space-y-6"
    >
      <FormError message={form.formError} />

      <ItemFields kind="post" id={postId} field={form.field} initialValues={initialValues}>
        <TextField
          {...form.field("canonicalUrl")}
          label="Canonical URL (optional)"
          hint="Where this post was first published, if not here: search engines are pointed there."
          type="url"
          inputMode="url"
          placeholder="https://…"
          maxLength={POST_LIMITS.canonicalUrl}
          defaultValue={initialValues.canonicalUrl}
        />
      </ItemFields>

      <TextAreaField
        {...form.field("excerpt")}
        label="Excerpt"
        mandatory
        rows={2}
        maxLength={POST_LIMITS.excerpt}
        defaultValue={initialValues.excerpt}
      />

      <div className="grid gap-6 sm:grid-cols-2">
        <TextField
          {...form.field("author")}
          label="Author"
          mandatory
          type="text"
          autoComplete="name"
          maxLength={POST_LIMITS.author}
          defaultValue={initialValues.author}
        />

        <SelectField
          {...form.field("category")}
          label="Category"
          mandatory
          defaultValue={initialValues.category}
          placeholder="Select a category"
          options={categories}
        />
      </div>

      <TextField
        {...form.field("coverImage")}
        label="Cover image URL"
        mandatory
        type="url"
        inputMode="url"
        placeholder="https://…"
        maxLength={POST_LIMITS.coverImage}
        defaultValue={initialValues.coverImage}
        onChange={(event) => {
          setCoverImage(event.currentTarget.value.trim());
        }}
      />
      {hydrated ? (
        <CoverImageUploader
          onUploaded={(url) => {
            const input = document.getElementById(form.field("coverImage").id);
            if (input instanceof HTMLInputElement) setInputValue(input, url);
          }}
        />
      ) : null}
      <figure>
        <figcaption className="text-sm font-medium text-slate-700 dark:text-slate-300">Cover preview</figcaption>
        {coverImage.startsWith("http") || isOwnMediaPath(coverImage) ? (
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
        {...form.field("tags")}
        label="Tags"
        hint="Press Enter or Add for each tag; several at once can be separated by commas."
      >
        {(control) => (
          <div className="flex gap-2">
            <input
              {...control}
              name="newTags"
              type="text"
              maxLength={POST_LIMITS.tag * POST_LIMITS.tags}
              value={newTag}
              onChange={(event) => {
                setNewTag(event.currentTarget.value);
                control.onChange();
              }}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  addTags();
                }
              }}
              className={inputStyles}
            />
            <button type="button" onClick={addTags} className={buttonStyles.secondary}>
              Add
            </button>
          </div>
        )}
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

      <Field {...form.field("publishAt")} label="At a time (optional)">
        {(control) => <ScheduleInput control={control} defaultValue={initialValues.publishAt} />}
      </Field>

      {email.newsletter === "sent" ? null : (
        <CheckboxField
          {...form.field("emailSubscribers")}
          label="Email this post to subscribers"
          hint={emailHint(email)}
          defaultChecked={initialValues.emailSubscribers && email.on && email.newsletter !== "closed"}
          disabled={!email.on || email.newsletter === "closed"}
        />
      )}

      <div className="flex items-center gap-2">
        <input
          id="post-comments-closed"
          name="commentsClosed"
          type="checkbox"
          defaultChecked={initialValues.commentsClosed}
          className="h-4 w-4 rounded border-slate-300 accent-indigo-600"
        />
        <label htmlFor="post-comments-closed" className="text-sm font-medium">
          Close comments
        </label>
      </div>

      <CheckboxField
        {...form.field("webmentionsOff")}
        label="Don't send Webmentions"
        hint="Published, the post tells the pages it links that it mentions them; tick to keep it quiet."
        defaultChecked={initialValues.webmentionsOff}
      />

      <EditorActions
        kind="post"
        submitLabel={submitLabel}
        creating={postId === undefined}
        draft={draft}
        cancelTo="/admin/posts"
      />
    </Form>
  );
}
