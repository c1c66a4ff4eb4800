import { data } from "react-router";
import { type OpenPage, type Page, pageExists, parsePageParam } from "#domain/pagination.ts";
import type { RouteErrorData } from "./route-errors.server";

/** Worded like the spec's other absences ('Post not found', docs/spec.md §8), for a page number that names no page. */
export const PAGE_NOT_FOUND_MESSAGE = "Page not found";

function pageNotFound(): never {
  throw data<RouteErrorData>({ message: PAGE_NOT_FOUND_MESSAGE }, { status: 404 });
}

/** `?page=` of the request: 1 when absent, a 404 when it cannot name a page (0, -1, 1.5, abc, huge). */
export function requestedPage(request: Request): number {
  return parsePageParam(new URL(request.url).searchParams.get("page")) ?? pageNotFound();
}

/** Where a page sits in its list, without its items: what pagination links need. */
export function pageInfo({ page, total, pageSize }: Pick<Page<unknown>, "page" | "total" | "pageSize">) {
  return { page, total, pageSize };
}

/** A page past the end of the list answers 404, like any address that names nothing. */
export function requireExistingPage<T extends Pick<Page<unknown>, "page" | "total" | "pageSize">>(page: T): T {
  return pageExists(page) ? page : pageNotFound();
}

/** An uncounted list's page: page 1 always exists, a later one only with items. */
export function requireExistingOpenPage<T extends OpenPage<unknown>>(page: T): T {
  return page.page === 1 || page.items.length > 0 ? page : pageNotFound();
}

/** Where an uncounted list's page sits, without its items. */
export function openPageInfo({ page, pageSize, hasNext }: OpenPage<unknown>) {
  return { page, pageSize, hasNext };
}
