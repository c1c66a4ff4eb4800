import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { appContext } from "#server/request-context.ts";
import appCss from "./app.css?inline";
import readerCss from "./reader.css?inline";
import { InlineStylesContext } from "./lib/inline-styles";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once; browsers get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesContext value={{ readers: readerCss, everything: appCss }}>
        <ServerRouter context={routerContext} url={request.url} />
      </InlineStylesContext>,
      {
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.get(appContext).logger.error({ err: error }, "streaming render failed");
        },
      },
    );
  });
}

/**
 * An unexpected loader, action or render error: its cause goes into the request's one
 * log line (server/kernel/http-logging.ts). Aborted requests are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A client's mistake that React Router answers itself (405 for a route without an action).
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  context.get(appContext).recordFailure(error);
};
