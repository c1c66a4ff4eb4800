import { isRouteErrorResponse, Link } from "react-router";

/** The message a loader threw (see throwAsRouteError), with a way back and a way to try again. */
export function RouteErrorMessage({ error, fallback }: { error: unknown; fallback: string }) {
  const data: unknown = isRouteErrorResponse(error) ? error.data : undefined;
  const message =
    typeof data === "object" && data !== null && "message" in data && typeof data.message === "string"
      ? data.message
      : fallback;
  return (
    <div className="mx-auto max-w-lg py-12 text-center">
      <title>{`${message} · Admin`}</title>
      <h1 className="text-2xl font-bold">{message}</h1>
      <div className="mt-6 flex justify-center gap-4">
        <Link to="/admin/posts" className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Back to posts
        </Link>
        <Link to="." reloadDocument className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Try again
        </Link>
      </div>
    </div>
  );
}
