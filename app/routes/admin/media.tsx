import { useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { editorPaths } from "~/components/admin/editor/edited-item";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { buttonStyles, formErrorStyles, textLinkStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { readFormData } from "~/lib/forms.server";
import { answerDomainErrors, type DomainFailure, withRouteErrors } from "~/lib/route-errors.server";
import { type DomainError, MediaInUseError } from "#domain/errors.ts";
import { formText, queryText } from "#domain/forms.ts";
import { formatBytes, srcsetFor } from "#domain/media.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/media";

const LOAD_FAILED = "Failed to load images. Please try again.";
const DELETE_MESSAGES = {
  DATABASE_UNAVAILABLE: "Failed to delete the image. Please try again.",
  MEDIA_IN_USE: "This image is used by these posts; remove it from them first:",
};
const HASH_PATTERN = /^[0-9a-f]{64}$/;

function pageFrom(url: URL): number {
  const page = Number(queryText(url, "page") || "1");
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    return await services.media.listLibrary(pageFrom(new URL(request.url)));
  },
);

/** Deleting; the editor's image uploads to this address are answered first (app/lib/image-upload.server.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const formData = await readFormData(request);
  const hash = formText(formData, "hash");
  if (formText(formData, "intent") !== "delete" || !HASH_PATTERN.test(hash)) {
    throw data({ message: "Unknown action" }, { status: 400 });
  }
  // The library says why beside the image, naming the posts and pages that still show it.
  const answer = (failure: DomainFailure, error: DomainError) =>
    data(
      {
        hash,
        error: failure.message,
        users: error instanceof MediaInUseError ? [...error.posts, ...error.pages] : [],
      },
      { status: failure.status, headers: failure.headers },
    );
  return answerDomainErrors(context, { messages: DELETE_MESSAGES, answer }, async () => {
    await services.media.deleteMedia(hash);
    return redirect(new URL(request.url).pathname + new URL(request.url).search);
  });
}

function CopyUrlButton({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={textLinkStyles}
      onClick={() => {
        void navigator.clipboard.writeText(new URL(url, window.location.href).href).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : "Copy URL"}
    </button>
  );
}

export default function AdminMedia({ loaderData, actionData }: Route.ComponentProps) {
  const { items, page, pageCount, total } = loaderData;
  const navigation = useNavigation();
  return (
    <>
      <title>Media · Admin</title>
      <div className="mb-6 flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Media</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {total} {total === 1 ? "image" : "images"}. Upload images from the post editor; JPEG, PNG, WebP, AVIF or GIF,
          up to 15 MB and 40 megapixels.
        </p>
      </div>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No images yet.
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Images">
          {items.map((item) => (
            <li
              key={item.hash}
              className="overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
            >
              <img
                src={item.url}
                srcSet={srcsetFor(item, item.format)}
                sizes="(min-width: 64rem) 20rem, (min-width: 40rem) 50vw, 100vw"
                width={item.width}
                height={item.height}
                alt={item.originalName}
                loading="lazy"
                decoding="async"
                className="aspect-[3/2] w-full bg-slate-100 object-contain dark:bg-slate-800"
              />
              <div className="space-y-2 p-4 text-sm">
                <p className="truncate font-medium" title={item.originalName}>
                  {item.originalName}
                </p>
                <p className="text-slate-600 dark:text-slate-400">
                  {item.width} × {item.height} · {formatBytes(item.bytes)} · {formatDate(item.createdAt)}
                </p>
                {item.posts.length + item.pages.length > 0 ? (
                  <p>
                    Used in{" "}
                    {[
                      ...item.posts.map((post) => ({ ...post, edit: editorPaths({ kind: "post", id: post.id }).edit })),
                      ...item.pages.map((page) => ({ ...page, edit: editorPaths({ kind: "page", id: page.id }).edit })),
                    ].map((user, index) => (
                      <span key={user.id}>
                        {index > 0 ? ", " : null}
                        <Link to={user.edit} className={textLinkStyles}>
                          {user.title}
                        </Link>
                      </span>
                    ))}
                  </p>
                ) : (
                  <p className="text-slate-600 dark:text-slate-400">Not used in any post or page</p>
                )}
                {actionData?.hash === item.hash ? (
                  <div role="alert" className={formErrorStyles}>
                    {actionData.error}
                    {actionData.users.length > 0 ? (
                      <ul className="mt-1 list-disc pl-5">
                        {actionData.users.map((user) => (
                          <li key={user.id}>{user.title}</li>
                        ))}
                      </ul>
                    ) : null}
                  </div>
                ) : null}
                <div className="flex flex-wrap items-center gap-4">
                  <a href={item.url} className={textLinkStyles}>
                    Open
                  </a>
                  <CopyUrlButton url={item.url} />
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="hash" value={item.hash} />
                    <button
                      type="submit"
                      disabled={navigation.state === "submitting"}
                      aria-label={`Delete ${item.originalName}`}
                      className="font-medium text-red-700 hover:underline dark:text-red-300"
                    >
                      Delete
                    </button>
                  </Form>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Pages" className="mt-6 flex items-center gap-4 text-sm">
          {page > 1 ? (
            <Link to={`?page=${page - 1}`} className={buttonStyles.secondary}>
              Previous
            </Link>
          ) : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={`?page=${page + 1}`} className={buttonStyles.secondary}>
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED} />;
}
