import { Link, useLocation } from "react-router";
import { type Page, pageCount } from "#domain/pagination.ts";
import { buttonStyles } from "~/components/ui/styles";

/** The same address with `?page=` changed (page 1 has none), every other parameter kept. */
export function pageHref(pathname: string, search: string, page: number, hash = ""): string {
  const params = new URLSearchParams(search);
  if (page === 1) params.delete("page");
  else params.set("page", String(page));
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}${hash}`;
}

interface PaginationProps {
  /** A counted list's place (`total`), or an uncounted one's (`hasNext`: a tag's, an author's). */
  page: Pick<Page<unknown>, "page" | "pageSize"> & ({ total: number } | { hasNext: boolean });
  /** What the list holds, for the navigation's name: "Posts", "Comments". */
  label: string;
  previousText?: string;
  nextText?: string;
  /** Where the list starts on the page, so a link lands on it. */
  hash?: string;
}

/**
 * Previous/next links for a paginated list, also announced in <head> as rel="prev"/"next"
 * (React 19 hoists <link> elements there). Plain links: they work without JavaScript.
 */
export function Pagination({ page, label, previousText = "Newer", nextText = "Older", hash }: PaginationProps) {
  const { pathname, search } = useLocation();
  const counted = "total" in page;
  const last = counted ? pageCount(page) : page.hasNext ? page.page + 1 : page.page;
  if (last <= 1) return null;
  const previous = page.page > 1 ? pageHref(pathname, search, page.page - 1) : null;
  const next = page.page < last ? pageHref(pathname, search, page.page + 1) : null;
  return (
    <nav aria-label={`${label} pages`} className="flex flex-wrap items-center justify-between gap-4">
      {previous ? <link rel="prev" href={previous} /> : null}
      {next ? <link rel="next" href={next} /> : null}
      {previous ? (
        <Link to={`${previous}${hash ?? ""}`} rel="prev" className={buttonStyles.secondary}>
          {previousText}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {counted ? `Page ${page.page} of ${last}` : `Page ${page.page}`}
      </p>
      {next ? (
        <Link to={`${next}${hash ?? ""}`} rel="next" className={buttonStyles.secondary}>
          {nextText}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
