// Ghost's Admin and Content APIs over HTTP, answered by Express ahead of React Router: apps send
// JSON with PUT and DELETE and no Origin, which the site's own form checks would refuse. Every
// answer is JSON, a refusal in Ghost's own shape (`{ "errors": [ … ] }`).
import { randomUUID } from "node:crypto";
import { asWebRequest } from "../kernel/http-web-request.ts";
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from "express";
import { isDomainError } from "#domain/errors.ts";
import { cleanText } from "#domain/forms.ts";
import { MEDIA_LIMITS, MEDIA_TOO_LARGE_MESSAGE } from "#domain/media.ts";
import { IMAGE_UPLOAD_MAX_BYTES, MAX_REQUEST_BODY_BYTES } from "../kernel/http-body-limits.ts";
import { readMultipart } from "../media/index.ts";
import type { AppCaller, AppsService } from "./service.ts";
import type { GhostAdmin } from "./ghost-admin.ts";
import { type BrowseQuery, GhostBadRequestError, type GhostContent } from "./ghost-content.ts";
import { ghostPostsBodySchema, GhostValidationError } from "./ghost-posts.ts";
import { readJsonBody } from "../kernel/http-bodies.ts";

export const GHOST_ADMIN_API_PATH = "/ghost/api/admin/";
export const GHOST_CONTENT_API_PATH = "/ghost/api/content/";

const ERROR_TYPES: Record<number, string> = {
  400: "BadRequestError",
  401: "UnauthorizedError",
  403: "NoPermissionError",
  404: "NotFoundError",
  409: "UpdateCollisionError",
  413: "RequestEntityTooLargeError",
  415: "UnsupportedMediaTypeError",
  422: "ValidationError",
  429: "TooManyRequestsError",
  501: "NotImplementedError",
  503: "InternalServerError",
};

const BROWSE_PARAMETERS = ["limit", "page", "fields", "include", "order", "filter", "formats"] as const;

/** A browse's parameters as text: a repeated one counts once (its first), each cleaned as a form field is. */
function query(req: Request): BrowseQuery {
  const read: BrowseQuery = {};
  for (const name of BROWSE_PARAMETERS) {
    const value = req.query[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") read[name] = cleanText(first);
  }
  return read;
}

function sendError(res: Response, status: number, message: string, extra: { property?: string; type?: string } = {}) {
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .json({
      errors: [
        {
          message,
          context: null,
          type: extra.type ?? ERROR_TYPES[status] ?? "InternalServerError",
          details: null,
          property: extra.property ?? null,
          help: null,
          code: null,
          id: randomUUID(),
          ghostErrorCode: null,
        },
      ],
    });
}

/** Every failure as Ghost words it; a bug is logged once and answered without its stack. */
const answerFailures: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof GhostValidationError) return sendError(res, 422, error.message, { property: error.property });
  if (error instanceof GhostBadRequestError) return sendError(res, 400, error.message);
  if (isDomainError(error)) {
    if (error.retryAfterSeconds !== undefined)
      res.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    if (error.code === "SLUG_TAKEN") return sendError(res, 422, error.message, { property: "slug" });
    if (error.code === "RATE_LIMITED") return sendError(res, 429, "Too many requests: please wait and try again");
    return sendError(
      res,
      error.status,
      error.status >= 500 ? "The blog cannot answer now. Please try again." : error.message,
    );
  }
  const bodyProblem = (error as { type?: unknown }).type;
  if (bodyProblem === "entity.too.large") {
    return sendError(res, 413, `Requests may be at most ${MAX_REQUEST_BODY_BYTES / 1024 / 1024} MB`);
  }
  if (bodyProblem === "entity.parse.failed") return sendError(res, 400, "The request body is not valid JSON");
  if (typeof bodyProblem === "string" && bodyProblem.startsWith("encoding.")) {
    return sendError(res, 415, "The request body's encoding is not supported");
  }
  req.log?.error({ err: error }, "a Ghost API request failed");
  sendError(res, 500, "Something went wrong", { type: "InternalServerError" });
};

type Handler = (req: Request, res: Response) => Promise<unknown>;
const answer =
  (handler: Handler): RequestHandler =>
  (req, res, next) => {
    handler(req, res).catch(next);
  };

/** A check ahead of the handlers: it refuses (answers or throws) or lets the request on. */
const gate =
  (check: Handler): RequestHandler =>
  (req, res, next) => {
    check(req, res).then(() => {
      if (!res.headersSent) next();
    }, next);
  };

const callerOf = (res: Response): AppCaller => res.locals.appCaller as AppCaller;
const address = (req: Request) => req.ip ?? "unknown";

function postsBody(req: Request) {
  const parsed = ghostPostsBodySchema.safeParse(req.body);
  if (!parsed.success)
    throw new GhostValidationError(parsed.error.issues[0]?.message ?? "Send { posts: [ … ] }", "posts");
  return parsed.data.posts[0]!;
}

const isSourceHtml = (req: Request) => req.query.source === "html";

export interface GhostApiRoutesOptions {
  keys: AppsService;
  admin: GhostAdmin;
  content: GhostContent;
}

/** The Admin API (`/ghost/api/admin/`, a JWT signed by an app key) and the Content API (`/ghost/api/content/`, `?key=`). */
export function createGhostApiRoutes({ keys, admin, content }: GhostApiRoutesOptions): Router {
  const router = Router({ strict: false });

  const adminApi = Router();
  adminApi.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  adminApi.use(
    gate(async (req, res) => {
      res.locals.appCaller = await keys.authenticateAdmin(req.get("authorization"), address(req));
    }),
  );
  adminApi.use(
    readJsonBody({
      limit: MAX_REQUEST_BODY_BYTES,
      type: (req) => !/^multipart\//i.test(String(req.headers["content-type"] ?? "")),
    }),
  );
  adminApi.get(
    "/site",
    answer(async (_req, res) => res.json({ site: await admin.site() })),
  );
  adminApi.get(
    "/posts",
    answer(async (req, res) => res.json(await admin.browsePosts(Math.max(1, Number(req.query.page ?? 1) || 1)))),
  );
  adminApi.get(
    "/posts/slug/:slug",
    answer(async (req, res) => res.json({ posts: [await admin.readPost({ slug: String(req.params.slug) })] })),
  );
  adminApi.get(
    "/posts/:id",
    answer(async (req, res) => res.json({ posts: [await admin.readPost({ id: String(req.params.id) })] })),
  );
  adminApi.post(
    "/posts",
    answer(async (req, res) =>
      res.status(201).json({ posts: [await admin.addPost(callerOf(res), postsBody(req), isSourceHtml(req))] }),
    ),
  );
  adminApi.put(
    "/posts/:id",
    answer(async (req, res) =>
      res.json({
        posts: [await admin.editPost(callerOf(res), String(req.params.id), postsBody(req), isSourceHtml(req))],
      }),
    ),
  );
  adminApi.delete(
    "/posts/:id",
    answer(async (req, res) => {
      await admin.deletePost(callerOf(res), String(req.params.id));
      res.status(204).end();
    }),
  );
  adminApi.get(
    "/tags",
    answer(async (req, res) => res.json(await content.browseTags(query(req)))),
  );
  adminApi.post(
    "/images/upload",
    answer(async (req, res) => {
      if (Number(req.get("content-length") ?? 0) > IMAGE_UPLOAD_MAX_BYTES)
        return sendError(res, 413, MEDIA_TOO_LARGE_MESSAGE);
      if (!/^multipart\/form-data\b/i.test(req.get("content-type") ?? "")) {
        return sendError(res, 415, "Send the image as multipart/form-data");
      }
      const body = await readMultipart(asWebRequest(req), {
        limits: { fileBytes: MEDIA_LIMITS.maxBytes, fields: 8, fieldBytes: 1024 },
      });
      if (!body.readable) return sendError(res, 400, "The upload could not be read");
      if (body.tooLarge) return sendError(res, 413, MEDIA_TOO_LARGE_MESSAGE);
      if (!body.file?.bytes) return sendError(res, 422, "Send the image as the field file", { property: "file" });
      const url = await admin.uploadImage(callerOf(res), { ...body.file, bytes: body.file.bytes });
      const ref = body.fields.get("ref");
      res.status(201).json({ images: [{ url, ref: typeof ref === "string" ? ref : null }] });
    }),
  );
  adminApi.use((_req, res) => sendError(res, 501, "This part of Ghost's Admin API is not supported here"));

  const contentApi = Router();
  // Browsers' front ends read it from other sites; the key is in the address, never a cookie.
  contentApi.use((req, res, next) => {
    res.set("Access-Control-Allow-Origin", "*");
    if (req.method === "OPTIONS") {
      res
        .set("Access-Control-Allow-Headers", "Accept-Version, Content-Type")
        .set("Access-Control-Allow-Methods", "GET, HEAD");
      res.status(204).end();
      return;
    }
    // Public content, but read afresh each time: a cache keeps it only while it checks back.
    res.set("Cache-Control", "public, max-age=0, must-revalidate");
    next();
  });
  contentApi.use(
    gate(async (req, res) => {
      if (req.method !== "GET" && req.method !== "HEAD")
        return sendError(res, 405, "The Content API only reads", { type: "MethodNotAllowedError" });
      await keys.authenticateContent(typeof req.query.key === "string" ? req.query.key : undefined, address(req));
    }),
  );
  const one = async (res: Response, resource: string, item: unknown) =>
    item ? res.json({ [resource]: [item] }) : sendError(res, 404, `${resource.slice(0, -1)} not found`);
  contentApi.get(
    "/posts",
    answer(async (req, res) => res.json(await content.browsePosts(query(req)))),
  );
  contentApi.get(
    "/posts/slug/:slug",
    answer(async (req, res) =>
      one(res, "posts", await content.readPost({ slug: String(req.params.slug) }, query(req))),
    ),
  );
  contentApi.get(
    "/posts/:id",
    answer(async (req, res) => one(res, "posts", await content.readPost({ id: String(req.params.id) }, query(req)))),
  );
  contentApi.get(
    "/pages",
    answer(async (req, res) => res.json(await content.browsePages(query(req)))),
  );
  contentApi.get(
    "/pages/slug/:slug",
    answer(async (req, res) =>
      one(res, "pages", (await content.browsePages(query(req), { slug: String(req.params.slug) })).pages[0]),
    ),
  );
  contentApi.get(
    "/pages/:id",
    answer(async (req, res) =>
      one(res, "pages", (await content.browsePages(query(req), { id: String(req.params.id) })).pages[0]),
    ),
  );
  contentApi.get(
    "/tags",
    answer(async (req, res) => res.json(await content.browseTags(query(req)))),
  );
  contentApi.get(
    "/tags/slug/:slug",
    answer(async (req, res) =>
      one(res, "tags", (await content.browseTags(query(req), String(req.params.slug))).tags[0]),
    ),
  );
  contentApi.get(
    "/authors",
    answer(async (req, res) => res.json(await content.browseAuthors(query(req)))),
  );
  contentApi.get(
    "/authors/slug/:slug",
    answer(async (req, res) =>
      one(res, "authors", (await content.browseAuthors(query(req), String(req.params.slug))).authors[0]),
    ),
  );
  contentApi.get(
    "/settings",
    answer(async (_req, res) => res.json(await content.settings())),
  );
  contentApi.use((_req, res) => sendError(res, 404, "This part of Ghost's Content API is not supported here"));

  router.use(GHOST_ADMIN_API_PATH, adminApi, answerFailures);
  router.use(GHOST_CONTENT_API_PATH, contentApi, answerFailures);
  return router;
}
