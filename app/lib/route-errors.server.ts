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

/** What a route says for an error code, when the error's own message is not it. */
export type DomainMessages = Partial<Record<DomainErrorCode, string>>;

/** The one place a refusal says when to come back: every 429 and 503 carries it. */
export function retryAfterHeaders(error: DomainError): Record<string, string> {
  const seconds = error.retryAfterSeconds;
  return seconds === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(seconds))) };
}

/**
 * A page route's `headers` when its action may be refused for a while: a browser without
 * JavaScript gets the page back, and the refusal's Retry-After with it (React Router keeps an
 * action's headers off a document unless the route passes them on).
 */
export function retryAfterOfAction({ actionHeaders }: { actionHeaders: Headers }): Headers {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
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
  messages: DomainMessages = {},
): DomainFailure {
  if (!isDomainError(error)) throw error;
  if (error.status >= 500) context.get(appContext).recordFailure(error.cause ?? error);
  return { status: error.status, message: messages[error.code] ?? error.message, headers: retryAfterHeaders(error) };
}

/** Turns a domain error into the response the route's error boundary shows. */
export function throwAsRouteError(
  error: unknown,
  context: Readonly<RouterContextProvider>,
  messages: DomainMessages = {},
): never {
  const { status, message, headers } = describeDomainError(error, context, messages);
  throw data<RouteErrorData>({ message }, { status, headers });
}

/**
 * Runs a route's work and answers a domain error it throws: with `answer` when the route has its
 * own shape for a refusal (a script's JSON, a list's inline message), else with the route's error
 * page. Thrown responses (redirects, 404s) and bugs pass through untouched.
 */
export async function answerDomainErrors<Result, Answer = never>(
  context: Readonly<RouterContextProvider>,
  {
    messages,
    answer,
  }: { messages?: DomainMessages; answer?: (failure: DomainFailure, error: DomainError) => Answer | Promise<Answer> },
  work: () => Promise<Result>,
): Promise<Result | Answer> {
  // The one catch every loader and action shares, so that routes hold none of their own.
  try {
    return await work();
  } catch (error) {
    if (!answer) throwAsRouteError(error, context, messages);
    return answer(describeDomainError(error, context, messages), error as DomainError);
  }
}

/**
 * A loader or action whose domain errors all become its error page, with this route's
 * messages: `export const loader = withRouteErrors({ DATABASE_UNAVAILABLE: "…" }, async (args) => …)`.
 */
export function withRouteErrors<Args extends { context: Readonly<RouterContextProvider> }, Result>(
  messages: DomainMessages,
  handler: (args: Args) => Promise<Result>,
): (args: Args) => Promise<Result> {
  return (args) => answerDomainErrors(args.context, { messages }, () => handler(args));
}
