// IndieAuth's endpoints over HTTP, ahead of React Router (apps post forms with no Origin). The
// authorization endpoint checks the request and sends the writer's browser to the consent
// screen in the admin (app/routes/admin/indieauth.tsx), which signs them in first if need be.
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from "express";
import { isDomainError } from "#domain/errors.ts";
import {
  INDIEAUTH_AUTHORIZATION_PATH,
  INDIEAUTH_CONSENT_PATH,
  INDIEAUTH_METADATA_PATH,
  INDIEAUTH_REVOCATION_PATH,
  INDIEAUTH_TOKEN_PATH,
} from "#domain/micropub.ts";
import { IndieAuthError, type IndieAuthService } from "./indieauth.ts";
import { readFormBody } from "../kernel/http-bodies.ts";

function refuse(res: Response, status: number, error: string, description: string) {
  res.status(status).set("Cache-Control", "no-store").json({ error, error_description: description });
}

const answerFailures: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof IndieAuthError) return refuse(res, 400, error.error, error.message);
  if (isDomainError(error, "RATE_LIMITED")) {
    res.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1))));
    return refuse(res, 429, "too_many_requests", "Too many requests: please wait and try again");
  }
  if ((error as { type?: unknown }).type === "entity.too.large") {
    return refuse(res, 413, "invalid_request", "The request is too large");
  }
  req.log?.error({ err: error }, "an IndieAuth request failed");
  refuse(res, 500, "server_error", "The blog cannot answer now. Please try again.");
};

const answer =
  (handler: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    handler(req, res).catch(next);
  };

const readForm = readFormBody({ limit: 16 * 1024, parameterLimit: 20 });
const fieldsOf = (body: unknown): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries((body ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name,
      typeof value === "string" ? value : undefined,
    ]),
  );

export function createIndieAuthRoutes(indieAuth: IndieAuthService): Router {
  const router = Router();
  const noStore: RequestHandler = (_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  };
  // The consent form's answer is a redirect to the app: the page's `form-action` must allow
  // the app's address (and only it), or the browser would stop the writer's Allow there.
  router.use(INDIEAUTH_CONSENT_PATH, (req, res, next) => {
    const policy = res.getHeader("Content-Security-Policy");
    if (typeof policy === "string") {
      try {
        const { redirectUri } = indieAuth.checkRequest(fieldsOf(req.query));
        const origin = new URL(redirectUri).origin;
        res.setHeader("Content-Security-Policy", policy.replace("form-action 'self'", `form-action 'self' ${origin}`));
      } catch (error) {
        if (!(error instanceof IndieAuthError)) throw error;
      }
    }
    next();
  });
  router.get(INDIEAUTH_METADATA_PATH, (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json(indieAuth.metadata());
  });
  // The request is checked before the screen is shown; a bad one is answered here, never sent on to an app.
  router.get(INDIEAUTH_AUTHORIZATION_PATH, noStore, (req, res) => {
    try {
      indieAuth.checkRequest(fieldsOf(req.query));
    } catch (error) {
      if (error instanceof IndieAuthError) {
        return res.status(400).type("text/plain").send(`This sign-in request cannot be answered: ${error.message}.`);
      }
      throw error;
    }
    const query = req.originalUrl.slice(req.originalUrl.indexOf("?"));
    res.redirect(302, `${INDIEAUTH_CONSENT_PATH}${query}`);
  });
  router.post(
    INDIEAUTH_AUTHORIZATION_PATH,
    noStore,
    readForm,
    answer(async (req, res) => res.json(await indieAuth.redeem(fieldsOf(req.body), req.ip ?? "unknown", false))),
  );
  router.post(
    INDIEAUTH_TOKEN_PATH,
    noStore,
    readForm,
    answer(async (req, res) => {
      const fields = fieldsOf(req.body);
      // The older way to revoke, still sent by some apps: `action=revoke` at the token endpoint.
      if (fields.action === "revoke") {
        await indieAuth.revoke(fields.token);
        return res.status(200).end();
      }
      res.json(await indieAuth.redeem(fields, req.ip ?? "unknown", true));
    }),
  );
  router.post(
    INDIEAUTH_REVOCATION_PATH,
    noStore,
    readForm,
    answer(async (req, res) => {
      await indieAuth.revoke(fieldsOf(req.body).token);
      res.status(200).end();
    }),
  );
  router.use([INDIEAUTH_AUTHORIZATION_PATH, INDIEAUTH_TOKEN_PATH, INDIEAUTH_REVOCATION_PATH], answerFailures);
  return router;
}
