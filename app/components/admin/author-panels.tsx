import { ImageFileInput } from "~/components/admin/image-file-input";
import { Form } from "react-router";
import { Panel } from "~/components/admin/panel";
import { TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles, fieldErrorStyles, labelStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { AUTHOR_SLUG_MAX, authorProfileForm, BIO_MAX } from "#domain/account.ts";
import type { FormResult } from "#domain/forms.ts";
import { mediaUrl } from "#domain/media.ts";
import { authorPath } from "#domain/site-urls.ts";

/** How the account appears to readers: its author page's address and bio (account-author.tsx). */
export function AuthorProfilePanel({
  slug,
  bio,
  result,
  busy,
}: {
  slug: string;
  bio: string;
  result: FormResult<"slug" | "bio", { slug: string; bio: string }> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(authorProfileForm, { id: "author-profile", result });
  return (
    <Panel id="author-profile-heading" title="Author profile">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Readers see your name, picture and bio under your posts and on{" "}
        <a href={authorPath(slug)} className="text-indigo-700 underline dark:text-indigo-300">
          your author page
        </a>
        , which lists the published posts whose author is your display name.
      </p>
      <Form method="post" action="/admin/account/author" {...form.props} className="mt-4 space-y-4">
        <TextField
          {...form.field("slug")}
          label="Author page address"
          hint="The end of /author/…: lower-case letters, digits and hyphens. Blank: made from your display name."
          maxLength={AUTHOR_SLUG_MAX}
          defaultValue={result?.values.slug ?? slug}
        />
        <TextAreaField
          {...form.field("bio")}
          label="Bio"
          hint={`A few sentences about you, up to ${BIO_MAX} characters; plain text.`}
          rows={4}
          maxLength={BIO_MAX}
          defaultValue={result?.values.bio ?? bio}
        />
        <button type="submit" disabled={busy} className={buttonStyles.primary}>
          Save author profile
        </button>
      </Form>
    </Panel>
  );
}

/** The author's picture: uploaded through the media pipeline, cut square (account-avatar.tsx). */
export function AvatarPanel({
  avatar,
  result,
  busy,
}: {
  avatar: string;
  result: { errors: { file?: string } } | undefined;
  busy: boolean;
}) {
  const error = result?.errors.file;
  return (
    <Panel id="avatar-heading" title="Picture">
      <Form method="post" action="/admin/account/avatar" encType="multipart/form-data" className="space-y-3">
        <label htmlFor="avatar-file" className={labelStyles}>
          Your picture
        </label>
        {avatar ? (
          <img
            src={mediaUrl(avatar, 192, "png")}
            alt="Your current picture"
            width={96}
            height={96}
            className="size-24 rounded-full"
          />
        ) : null}
        <ImageFileInput
          id="avatar-file"
          name="file"
          accept="image/png,image/jpeg,image/webp,image/avif,image/gif"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "avatar-file-error" : "avatar-file-hint"}
          previewAlt="Your chosen picture"
          previewClassName="size-24 rounded-full object-cover"
        />
        <p id="avatar-file-hint" className="text-xs text-slate-600 dark:text-slate-400">
          PNG, JPEG, WebP, AVIF or GIF; cut to a square from its centre.
        </p>
        {error ? (
          <p id="avatar-file-error" className={fieldErrorStyles}>
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy} className={buttonStyles.secondary}>
          Upload picture
        </button>
      </Form>
      {avatar ? (
        <Form method="post" action="/admin/account/avatar" className="mt-3">
          <button type="submit" name="intent" value="remove" disabled={busy} className={buttonStyles.secondary}>
            Remove picture
          </button>
        </Form>
      ) : null}
    </Panel>
  );
}
