import { data, type RouterContextProvider } from "react-router";
import { type DomainErrorCode, isDomainError, RateLimitedError } from "../../server/errors.ts";
import { appContext } from "../context.ts";

const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  POST_NOT_FOUND: 404,
  POST_NOT_AVAILABLE: 404,
  CATEGORY_NOT_FOUND: 404,
  INVALID_CREDENTIALS: 401,
  RATE_LIMITED: 429,
  READ_FAILED: 503,
  WRITE_FAILED: 503,
  SETUP_CLOSED: 410,
};

export interface RouteErrorData {
  message: string;
}

export interface DomainFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
}

type Messages = Partial<Record<DomainErrorCode, string>>;

/**
 * The response a domain error deserves: the spec's message for that code (or the error's
 * own) and the matching status. A 5xx is logged here, once, with the database's own error,
 * because React Router does not log errors a route throws as responses. Anything that is not
 * a domain error is rethrown untouched, to be logged by entry.server.tsx and shown as a 500.
 */
export function describeDomainError(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  messages: Messages = {},
): DomainFailure {
  if (!isDomainError(error)) throw error;
  const status = STATUS_BY_CODE[error.code];
  if (status >= 500)
    context.get(appContext).logger.error({ err: error.cause ?? error, code: error.code }, error.message);
  const headers: Record<string, string> =
    error instanceof RateLimitedError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return { status, message: messages[error.code] ?? error.message, headers };
}

/** Turns a domain error into the response the route's error boundary shows. */
export function throwAsRouteError(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  messages: Messages = {},
): never {
  const { status, message, headers } = describeDomainError(error, context, messages);
  const body: RouteErrorData = { message };
  throw data(body, { status, headers });
}
