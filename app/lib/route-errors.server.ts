import { data, type RouterContextProvider } from "react-router";
import { type DomainError, type DomainErrorCode, isDomainError } from "#domain/errors.ts";
import { appContext } from "#server/request-context.ts";

export interface RouteErrorData {
  message: string;
}

export interface DomainFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
}

type Messages = Partial<Record<DomainErrorCode, string>>;

/** The one place a refusal says when to come back: every 429 and 503 carries it. */
export function retryAfterHeaders(error: DomainError): Record<string, string> {
  const seconds = error.retryAfterSeconds;
  return seconds === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(seconds))) };
}

/**
 * The response a domain error deserves: its own status, and the spec's message for its
 * code (or the error's own). A 5xx keeps its cause for the request's one log line.
 * Anything that is not a domain error is a bug: it is rethrown untouched, to reach the
 * error boundary and be logged once by entry.server.tsx.
 */
export function describeDomainError(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  messages: Messages = {},
): DomainFailure {
  if (!isDomainError(error)) throw error;
  if (error.status >= 500) context.get(appContext).recordFailure(error.cause ?? error);
  return { status: error.status, message: messages[error.code] ?? error.message, headers: retryAfterHeaders(error) };
}

/** Turns a domain error into the response the route's error boundary shows. */
export function throwAsRouteError(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  messages: Messages = {},
): never {
  const { status, message, headers } = describeDomainError(error, context, messages);
  throw data<RouteErrorData>({ message }, { status, headers });
}
