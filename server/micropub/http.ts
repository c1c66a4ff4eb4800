// Micropub over HTTP (https://www.w3.org/TR/micropub/), answered by Express ahead of React
// Router: apps post forms and JSON with no Origin, which the site's own form checks would refuse.
// Every refusal is Micropub's JSON, `{ "error", "error_description" }`, with the status it names.
import { asWebRequest } from "../kernel/http-web-request.ts";
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from "express";
import { isDomainError } from "#domain/errors.ts";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { MICROPUB_MEDIA_PATH, MICROPUB_PATH } from "#domain/micropub.ts";
import { IMAGE_UPLOAD_MAX_BYTES, MAX_REQUEST_BODY_BYTES } from "../kernel/http-body-limits.ts";
import { readMultipart, type ReceivedFile } from "../media/index.ts";
import { MicropubRequestError, readForm, readJson } from "./properties.ts";
import { InsufficientScopeError, type MicropubCaller, type MicropubService } from "./service.ts";
import { cleanFormValues, readFormBody, readJsonBody } from "../kernel/http-bodies.ts";
import { cleanText } from "#domain/forms.ts";

/** Finds who a bearer token acts as, or throws (a refused token is the DomainError APP_KEY_REFUSED). */
export type Authenticate = (token: string | undefined, address: string) => Promise<MicropubCaller>;

/** The rels the home page's Link header announces (domain/micropub.ts). */
export type DiscoveryLinks = readonly { rel: string; href: string }[];

function refuse(res: Response, status: number, error: string, description: string, extra: object = {}) {
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .json({ error, error_description: description, ...extra });
}

const answerFailures: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof MicropubRequestError) return refuse(res, 400, "invalid_request", error.message);
  if (error instanceof InsufficientScopeError) {
    return refuse(res, 403, "insufficient_scope", error.message, { scope: error.scope });
  }
  if (isDomainError(error)) {
    if (error.code === "APP_KEY_REFUSED") {
      res.set("WWW-Authenticate", 'Bearer error="invalid_token"');
      return refuse(res, 401, "unauthorized", error.message);
    }
    if (error.code === "RATE_LIMITED") {
      res.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1))));
      return refuse(res, 429, "too_many_requests", "Too many requests: please wait and try again");
    }
    if (error.status < 500)
      return refuse(res, error.status === 404 ? 400 : error.status, "invalid_request", error.message);
  }
  const bodyProblem = (error as { type?: unknown }).type;
  if (bodyProblem === "entity.too.large") {
    return refuse(res, 413, "invalid_request", `Requests may be at most ${MAX_REQUEST_BODY_BYTES / 1024 / 1024} MB`);
  }
  if (bodyProblem === "entity.parse.failed") return refuse(res, 400, "invalid_request", "The body is not valid JSON");
  req.log?.error({ err: error }, "a Micropub request failed");
  refuse(res, 500, "server_error", "The blog cannot answer now. Please try again.");
};

const answer =
  (handler: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    handler(req, res).catch(next);
  };

/** The token from `Authorization: Bearer …`, else from the form's `access_token` (never kept as a property). */
function tokenOf(req: Request, formToken?: unknown): string | undefined {
  const header = /^Bearer\s+(\S+)$/i.exec(req.get("authorization")?.trim() ?? "")?.[1];
  return header ?? (typeof formToken === "string" && formToken !== "" ? formToken : undefined);
}

const address = (req: Request) => req.ip ?? "unknown";

/** Photos sent with a new post in one multipart request (micropub.rocks 300 and 301), at most. */
const PHOTOS_PER_POST = 4;

/** A multipart form's text fields, as a urlencoded body reads: a repeated name is a list, every value cleaned. */
function textFields(form: FormData): Record<string, unknown> {
  // No prototype: a field named "constructor" or "__proto__" is a field like any other.
  const fields = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return cleanFormValues(fields);
}

/**
 * A multipart body must say its size, so it is refused by its Content-Length before it is read
 * (as limitRequestBodies does for the site's forms) rather than read up to every field's limit.
 */
function refusedWithoutLength(req: Request, res: Response): boolean {
  if (req.get("content-length") !== undefined) return false;
  refuse(res, 411, "invalid_request", "Send the upload with a Content-Length header");
  return true;
}

/** What a multipart create carried besides its fields: the photos, stored once the caller is known. */
const photosOf = (res: Response) => (res.locals.photos ?? []) as ReceivedFile[];

export interface MicropubRoutesOptions {
  micropub: MicropubService;
  authenticate: Authenticate;
  links: DiscoveryLinks;
}

/** `/micropub` (create, update, delete, queries), `/micropub/media`, and the home page's Link header. */
export function createMicropubRoutes({ micropub, authenticate, links }: MicropubRoutesOptions): Router {
  const router = Router();
  const linkHeader = links.map(({ rel, href }) => `<${href}>; rel="${rel}"`).join(", ");
  router.use((req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && req.path === "/") res.append("Link", linkHeader);
    next();
  });

  const api = Router();
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  api.get(
    "/",
    answer(async (req, res) => {
      const caller = await authenticate(tokenOf(req), address(req));
      const q = typeof req.query.q === "string" ? req.query.q : "";
      if (q === "config") return res.json(await micropub.config());
      if (q === "syndicate-to") return res.json({ "syndicate-to": [] });
      if (q === "category") return res.json({ categories: await micropub.categories() });
      if (q === "source") {
        const url = typeof req.query.url === "string" ? cleanText(req.query.url) : "";
        if (url === "") return refuse(res, 400, "invalid_request", "q=source needs the post's url");
        const asked = req.query["properties[]"] ?? req.query.properties;
        const only = (Array.isArray(asked) ? asked : asked === undefined ? [] : [asked]).map((name) =>
          cleanText(String(name)),
        );
        return res.json(await micropub.source(caller, url, only));
      }
      refuse(res, 400, "invalid_request", "Ask q=config, q=source, q=syndicate-to or q=category");
    }),
  );
  const readBody: RequestHandler = (req, res, next) => {
    const type = req.get("content-type") ?? "";
    if (/^application\/json\b/i.test(type)) return readJsonBody({ limit: MAX_REQUEST_BODY_BYTES })(req, res, next);
    if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
      return readFormBody({ limit: MAX_REQUEST_BODY_BYTES, parameterLimit: 200 })(req, res, next);
    }
    if (/^multipart\/form-data\b/i.test(type)) {
      return void readPostWithPhotos(req, res).then((read) => read && next(), next);
    }
    refuse(
      res,
      415,
      "invalid_request",
      "Send the post as a form (application/x-www-form-urlencoded or multipart/form-data) or as JSON",
    );
  };
  /**
   * A new post with its photos in one request: fields into `req.body`, photos kept for later;
   * false if refused. The token must come in the header, checked before megabytes are read.
   */
  async function readPostWithPhotos(req: Request, res: Response): Promise<boolean> {
    res.locals.caller = await authenticate(tokenOf(req), address(req));
    if (refusedWithoutLength(req, res)) return false;
    const tooLarge = `Send at most ${PHOTOS_PER_POST} photos with a post. ${MEDIA_TOO_LARGE_MESSAGE}`;
    if (Number(req.get("content-length")) > MAX_REQUEST_BODY_BYTES + PHOTOS_PER_POST * IMAGE_UPLOAD_MAX_BYTES) {
      refuse(res, 413, "invalid_request", tooLarge);
      return false;
    }
    const body = await readMultipart(asWebRequest(req), {
      limits: { fileBytes: MEDIA_LIMITS.maxBytes, fields: 200, fieldBytes: MAX_REQUEST_BODY_BYTES },
      files: { fields: ["photo", "photo[]"], max: PHOTOS_PER_POST },
    });
    if (!body.readable) throw new MicropubRequestError("The post could not be read as multipart/form-data");
    if (body.tooLarge) {
      refuse(res, 413, "invalid_request", tooLarge);
      return false;
    }
    req.body = textFields(body.fields);
    res.locals.photos = body.files;
    return true;
  }
  api.post(
    "/",
    readBody,
    answer(async (req, res) => {
      const isJson = req.is("application/json") !== false;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const caller =
        (res.locals.caller as MicropubCaller | undefined) ??
        (await authenticate(tokenOf(req, isJson ? undefined : body.access_token), address(req)));
      const request = isJson ? readJson(body) : readForm(body);
      const photos = photosOf(res);
      if (photos.length > 0) {
        if (request.action !== "create") throw new MicropubRequestError("Photos may be sent only with a new post");
        // Stored only now that the token is known to be good, through the media endpoint's one path.
        for (const photo of photos) {
          const url = await micropub.upload(caller, { ...photo, bytes: photo.bytes ?? Buffer.alloc(0) });
          request.properties.photo = [...(request.properties.photo ?? []), url];
        }
      }
      const outcome = await micropub.act(caller, request);
      if (outcome.url) res.set("Location", outcome.url);
      res.status(outcome.status);
      if (outcome.status === 204) return res.end();
      res.json(outcome.url ? { url: outcome.url } : {});
    }),
  );

  const media = Router();
  media.post(
    "/",
    answer(async (req, res) => {
      // The token comes in the header, as with a post's photos, and is checked before megabytes are read.
      const caller = await authenticate(tokenOf(req), address(req));
      if (refusedWithoutLength(req, res)) return;
      if (Number(req.get("content-length")) > IMAGE_UPLOAD_MAX_BYTES) {
        return refuse(res, 413, "invalid_request", MEDIA_TOO_LARGE_MESSAGE);
      }
      if (!/^multipart\/form-data\b/i.test(req.get("content-type") ?? "")) {
        return refuse(res, 415, "invalid_request", "Send the image as multipart/form-data, in the field file");
      }
      const body = await readMultipart(asWebRequest(req), {
        limits: { fileBytes: MEDIA_LIMITS.maxBytes, fields: 8, fieldBytes: 1024 },
      });
      if (!body.readable) return refuse(res, 400, "invalid_request", "The upload could not be read");
      if (body.tooLarge) return refuse(res, 413, "invalid_request", MEDIA_TOO_LARGE_MESSAGE);
      if (!body.file?.bytes) return refuse(res, 400, "invalid_request", "Send the image in the field file");
      const url = await micropub.upload(caller, { ...body.file, bytes: body.file.bytes });
      res.status(201).set("Location", url).set("Cache-Control", "no-store").json({ url });
    }),
  );

  router.use(MICROPUB_MEDIA_PATH, media, answerFailures);
  router.use(MICROPUB_PATH, api, answerFailures);
  return router;
}
