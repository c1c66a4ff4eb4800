import { data, isRouteErrorResponse } from "react-router";
import { OriginalAbout } from "~/components/site/built-in-pages/about";
import { OriginalPrivacy } from "~/components/site/built-in-pages/privacy";
import { OriginalTerms } from "~/components/site/built-in-pages/terms";
import { ErrorPanel } from "~/components/site/error-panel";
import { PageArticle } from "~/components/site/page-article";
import { type Page, showsOriginalDesign } from "#domain/page.ts";
import { SLUG_MAX_LENGTH } from "#domain/post.ts";
import { pagePath } from "#domain/site-urls.ts";
import { htmlToText } from "#server/kernel/html.ts";
import { appContext } from "#server/request-context.ts";
import { pageTag } from "#server/kernel/content-changes.ts";
import { errorMeta, SITE_DESCRIPTION, seoMeta, siteUrlFrom, withSite } from "~/lib/meta";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { absoluteUrl } from "~/lib/site-urls";
import { staticPage } from "~/lib/static-page";
import NotFound, { meta as notFoundMeta } from "./not-found";
import type { Route } from "./+types/page";

/** Every slug a page can have (server/kernel/slugs.ts makes them); anything else is answered without a query. */
const PAGE_ADDRESS = new RegExp(`^[a-z0-9-]{1,${SLUG_MAX_LENGTH}}$`);

/** A blank description becomes the body's opening words, as long as an imported post's excerpt. */
const DESCRIPTION_FROM_BODY = 200;

function describePage(page: Page): string {
  if (page.description !== "") return page.description;
  const text = htmlToText(page.contentHtml);
  if (text.length <= DESCRIPTION_FROM_BODY) return text || SITE_DESCRIPTION;
  const cut = text.slice(0, DESCRIPTION_FROM_BODY);
  const lastSpace = cut.lastIndexOf(" ");
  return `${lastSpace > 0 ? cut.slice(0, lastSpace) : cut}…`;
}

function isNotFound(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 404;
}

/** /{slug}: a published page (docs/decisions/0018-pages.md). Missing, draft or malformed: the site's 404 page. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load page. Please try again." },
  async ({ params, context }: Route.LoaderArgs) => {
    if (!PAGE_ADDRESS.test(params.slug)) throw data<RouteErrorData>({ message: "Page Not Found" }, { status: 404 });
    const { services, tagPage } = context.get(appContext);
    const page = await services.pages.getPublicPage(params.slug);
    const head = { title: page.title, description: describePage(page), path: pagePath(page.slug) };
    if (showsOriginalDesign(page)) {
      // docs/spec.md §2: Privacy and Terms show today's date until edited. They stay out of the page
      // cache, as before pages existed: a stored copy would show yesterday's date after midnight, and
      // a loader has no way to give the cache an expiry. About shows no date and is cached until saved.
      if (page.builtIn === "about") tagPage([pageTag(page.id)]);
      return { ...head, original: page.builtIn, lastUpdated: new Date().toISOString() };
    }
    tagPage([pageTag(page.id)]);
    return {
      ...head,
      original: null,
      contentHtml: page.contentHtml,
      lastUpdated: page.showLastUpdated ? (page.editedAt ?? page.updatedAt) : undefined,
    };
  },
);

export const handle = staticPage;

const pageMeta = withSite(({ loaderData, error, matches, location }: Route.MetaArgs) => {
  if (error || !loaderData) return errorMeta(error);
  return seoMeta({
    title: loaderData.title,
    description: loaderData.description,
    canonical: absoluteUrl(siteUrlFrom(matches), loaderData.path),
    matches,
    location,
  });
});

/**
 * A page that is not there has the head of any unknown address. That route's meta reads only the
 * matches (the site's name), which both routes share; its types name its own route among them.
 */
export const meta: Route.MetaFunction = (args) =>
  isNotFound(args.error) ? notFoundMeta(args as unknown as Parameters<typeof notFoundMeta>[0]) : pageMeta(args);

export default function SitePage({ loaderData: page }: Route.ComponentProps) {
  if (page.original === null) {
    return <PageArticle title={page.title} contentHtml={page.contentHtml} lastUpdated={page.lastUpdated} />;
  }
  if (page.original === "about") return <OriginalAbout />;
  if (page.original === "privacy") return <OriginalPrivacy lastUpdated={page.lastUpdated} />;
  return <OriginalTerms lastUpdated={page.lastUpdated} />;
}

/** A missing or draft page is the same 404 page as any unknown address; an outage gets the spec's message. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isNotFound(error)) return <NotFound />;
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
