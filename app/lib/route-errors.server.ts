import { data } from "react-router";
import { type DomainErrorCode, isDomainError } from "../../server/errors.ts";

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

/**
 * Turns a domain error into the response the route boundary shows: the spec's message
 * for that code (or the error's own) with the matching status. Anything else is rethrown
 * untouched, to be logged once and shown as a generic 500.
 */
export function throwAsRouteError(error: unknown, messages: Partial<Record<DomainErrorCode, string>> = {}): never {
  if (isDomainError(error)) {
    const body: RouteErrorData = { message: messages[error.code] ?? error.message };
    throw data(body, { status: STATUS_BY_CODE[error.code] });
  }
  throw error;
}
