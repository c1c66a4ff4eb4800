import { Link } from "react-router";
import type { Author } from "#domain/account.ts";
import { mediaUrl } from "#domain/media.ts";
import { authorPath } from "#domain/site-urls.ts";

/** An author's square picture (server/media/site-images.ts, AVATAR_SIZES), or their initial when they have none. */
export function AuthorAvatar({ author, size }: { author: Pick<Author, "name" | "avatar">; size: 48 | 96 }) {
  const box = size === 96 ? "size-24 text-3xl" : "size-12 text-lg";
  if (!author.avatar) {
    return (
      <span
        aria-hidden="true"
        className={`flex shrink-0 items-center justify-center rounded-full bg-indigo-100 font-serif font-bold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200 ${box}`}
      >
        {author.name.charAt(0).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      src={mediaUrl(author.avatar, size * 2, "png")}
      srcSet={`${mediaUrl(author.avatar, 96, "png")} 96w, ${mediaUrl(author.avatar, 192, "png")} 192w`}
      sizes={`${size}px`}
      width={size}
      height={size}
      alt=""
      loading="lazy"
      className={`shrink-0 rounded-full object-cover ${box}`}
    />
  );
}

/** Under a post: who wrote it, their picture and bio, and a link to their page. */
export function AuthorBox({ author }: { author: Author }) {
  return (
    <aside
      aria-labelledby="author-box-heading"
      className="flex items-start gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800"
      data-author-box
    >
      <AuthorAvatar author={author} size={48} />
      <div className="min-w-0 space-y-1">
        <p id="author-box-heading" className="font-semibold text-slate-900 dark:text-white">
          Written by{" "}
          <Link
            to={authorPath(author.slug)}
            rel="author"
            className="text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
          >
            {author.name}
          </Link>
        </p>
        {author.bio ? <p className="whitespace-pre-line text-slate-700 dark:text-slate-300">{author.bio}</p> : null}
      </div>
    </aside>
  );
}
