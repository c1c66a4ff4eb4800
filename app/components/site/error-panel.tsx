import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { routeErrorMessage } from "~/lib/meta";

interface ErrorPanelProps {
  error: unknown;
  back: { to: string; label: string };
}

/**
 * What a route's error boundary shows: the spec's message, a way back, and a retry that
 * reloads the same address (a plain link, so it also works without JavaScript).
 */
export function ErrorPanel({ error, back }: ErrorPanelProps) {
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="mx-auto max-w-xl py-16 text-center" aria-labelledby="error-heading" data-error-status={status}>
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">
        Error {status}
      </p>
      <h1 id="error-heading" className="mt-2 font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">
        {routeErrorMessage(error)}
      </h1>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={back.to} className={buttonStyles.primary}>
          {back.label}
        </Link>
        <a href={`${location.pathname}${location.search}`} className={buttonStyles.secondary}>
          Try again
        </a>
      </div>
    </section>
  );
}
