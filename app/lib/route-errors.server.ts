import { data } from "react-router";
import { type DomainErrorCode, isDomainError, RateLimitedError } from "../../server/errors.ts";

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
 * own) and the matching status. Anything else is rethrown untouched, to be logged once and
 * shown as a generic 500.
 */
export function describeDomainError(error: unknown, messages: Messages = {}): DomainFailure {
  if (!isDomainError(error)) throw error;
  const headers: Record<string, string> =
    error instanceof RateLimitedError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return { status: STATUS_BY_CODE[error.code], message: messages[error.code] ?? error.message, headers };
}

/** Turns a domain error into the response the route's error boundary shows. */
export function throwAsRouteError(error: unknown, messages: Messages = {}): never {
  const { status, message, headers } = describeDomainError(error, messages);
  const body: RouteErrorData = { message };
  throw data(body, { status, headers });
}
