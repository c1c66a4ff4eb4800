import { Link } from "react-router";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { useSite } from "~/lib/use-site";
import { categoryPath } from "#domain/categories.ts";

/** docs/spec.md §2: the footer links these four categories, whatever else exists. */
const FOOTER_CATEGORIES = ["Development", "Technology", "Design", "Business"] as const;

const footerLinkStyles =
  "text-sm text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline dark:text-slate-300 dark:hover:text-white";
const footerHeadingStyles = "text-sm font-semibold text-slate-900 dark:text-white";

/**
 * `fediverseHandle` ("@blog@example.com") is what a reader types into Mastodon's search to
 * follow the blog; plain text to select, since readers' pages run no script to copy it.
 */
export function SiteFooter({ sourceUrl, fediverseHandle }: { sourceUrl: string; fediverseHandle?: string }) {
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
        <nav aria-labelledby="footer-categories">
          <h2 id="footer-categories" className={footerHeadingStyles}>
            Categories
          </h2>
          <ul className="mt-3 space-y-2">
            {FOOTER_CATEGORIES.map((category) => (
              <li key={category}>
                <Link to={categoryPath(category)} className={footerLinkStyles}>
                  {category}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-site">
          <h2 id="footer-site" className={footerHeadingStyles}>
            Site
          </h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link to="/about" className={footerLinkStyles}>
                About
              </Link>
            </li>
            <li>
              <Link to="/about#contact" className={footerLinkStyles}>
                Contact
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={footerLinkStyles}>
                Privacy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={footerLinkStyles}>
                Terms
              </Link>
            </li>
            <li>
              <a href={sourceUrl} rel="noopener" className={footerLinkStyles}>
                Source code
              </a>
            </li>
          </ul>
        </nav>
        <div className="col-span-2 sm:col-span-3">
          <SubscribeForm id="footer-subscribe" />
        </div>
      </div>
    </footer>
  );
}
