import { data, Link } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { NOINDEX, pageMeta, withSite } from "~/lib/meta";
import type { Route } from "./+types/not-found";
import { staticPage } from "~/lib/static-page";

export function loader() {
  return data(null, { status: 404 });
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(() => [
  ...pageMeta("Page Not Found", "There is no page at this address."),
  NOINDEX,
]);

export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center" data-error-status="404">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Error 404</p>
      <h1 className="mt-2 font-serif text-4xl font-bold text-slate-900 dark:text-white">Page Not Found</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        The page you are looking for does not exist or has moved.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonStyles.primary}>
          Back to Home
        </Link>
        {/* A link home; the page script makes it a step back in history when there is one. */}
        <a href="/" data-history-back className={buttonStyles.secondary}>
          Go Back
        </a>
      </div>
    </section>
  );
}
