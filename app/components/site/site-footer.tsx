import { Link } from "react-router";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { useSite } from "~/lib/use-site";
import { defaultNavigationLinks, isOutboundLink, type NavigationLink } from "#domain/navigation.ts";

const footerLinkStyles =
  "text-sm text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline dark:text-slate-300 dark:hover:text-white";
const footerHeadingStyles = "text-sm font-semibold text-slate-900 dark:text-white";

function FooterLinks({ id, heading, links }: { id: string; heading: string; links: NavigationLink[] }) {
  // An empty column says nothing, so it is left out rather than shown as a bare heading.
  if (links.length === 0) return null;
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className={footerHeadingStyles}>
        {heading}
      </h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.id}>
            {isOutboundLink(link) ? (
              <a href={link.href} rel="noopener" className={footerLinkStyles}>
                {link.label}
              </a>
            ) : (
              <Link to={link.href} className={footerLinkStyles}>
                {link.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * `fediverseHandle` ("@blog@example.com") is what a reader types into Mastodon's search to
 * follow the blog; plain text to select, since readers' pages run no script to copy it.
 * `links` is the footer menu as the site layout resolved it (the defaults with `sourceUrl`
 * when absent): links to categories go under "Categories", the rest under "Site", each in
 * the menu's order.
 */
export function SiteFooter({
  sourceUrl,
  fediverseHandle,
  links = defaultNavigationLinks("footer", { aboutUrl: "", sourceUrl }),
}: {
  sourceUrl: string;
  fediverseHandle?: string;
  links?: NavigationLink[];
}) {
  const site = useSite();
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:grid-cols-3">
        <div className="col-span-2 sm:col-span-1">
          <p className="font-serif text-lg font-bold text-slate-900 dark:text-white">{site.title}</p>
          {site.footerText ? (
            <p className="mt-2 max-w-xs text-sm text-slate-700 dark:text-slate-300">{site.footerText}</p>
          ) : null}
          {fediverseHandle ? (
            <p className="mt-3 max-w-xs text-sm text-slate-700 dark:text-slate-300">
              Follow <span className="font-medium break-all text-slate-900 dark:text-white">{fediverseHandle}</span> on
              Mastodon or anywhere in the fediverse.
            </p>
          ) : null}
        </div>
        <FooterLinks
          id="footer-categories"
          heading="Categories"
          links={links.filter((link) => link.kind === "category")}
        />
        <FooterLinks id="footer-site" heading="Site" links={links.filter((link) => link.kind !== "category")} />
        <div className="col-span-2 sm:col-span-3">
          <SubscribeForm id="footer-subscribe" />
        </div>
      </div>
    </footer>
  );
}
