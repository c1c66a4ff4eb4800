import { isRouteErrorResponse, type MetaDescriptor } from "react-router";

export const SITE_NAME = "Inkwell";
export const SITE_DESCRIPTION = "Notes on development, technology, design and business from a personal blog.";

/** The title and description every page carries; the site name is appended to the title. */
export function pageMeta(title: string, description: string = SITE_DESCRIPTION): MetaDescriptor[] {
  return [{ title: `${title} | ${SITE_NAME}` }, { name: "description", content: description }];
}

/** The message a route's error boundary shows: the spec's text for expected failures, else a generic one. */
export function routeErrorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const message = (error.data as { message?: unknown } | null)?.message;
    if (typeof message === "string") return message;
    return error.status === 404 ? "Page Not Found" : "Something went wrong";
  }
  return "Something went wrong";
}

/** Meta for a page whose loader failed: the error's message as the title. */
export function errorMeta(error: unknown): MetaDescriptor[] {
  return pageMeta(routeErrorMessage(error));
}
