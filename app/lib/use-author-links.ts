import { useContext } from "react";
import { UNSAFE_DataRouterDataContext } from "react-router";
import type { AuthorLink } from "#domain/account.ts";
import { authorPath } from "#domain/site-urls.ts";

/**
 * The author page a byline's name leads to, from the root loader's data (every account's name
 * and address), or undefined for a name no account has (an imported post's). Read from the
 * router's data context, as useSite is, so cards still render outside a router (component tests).
 */
export function useAuthorPath(name: string): string | undefined {
  const loaderData = useContext(UNSAFE_DataRouterDataContext)?.loaderData as Record<string, unknown> | undefined;
  const authors = (loaderData?.root as { authors?: AuthorLink[] } | undefined)?.authors;
  const author = authors?.find((candidate) => candidate.name === name);
  return author ? authorPath(author.slug) : undefined;
}
