/**
 * Expected failures with a stable code and the HTTP status they deserve. Services throw
 * them; routes turn them into responses at the edge (app/lib/route-errors.server.ts).
 * Anything that is not one of these is a bug and goes to the error boundary.
 */
export type DomainErrorCode =
  | "POST_NOT_FOUND"
  | "PAGE_NOT_FOUND"
  | "PAGE_SLUG_RESERVED"
  | "POST_NOT_AVAILABLE"
  | "REVISION_NOT_FOUND"
  | "PREVIEW_NOT_FOUND"
  | "CATEGORY_NOT_FOUND"
  | "CATEGORY_TAKEN"
  | "CATEGORY_UNKNOWN"
  | "LAST_CATEGORY"
  | "SLUG_TAKEN"
  | "INVALID_CREDENTIALS"
  | "RATE_LIMITED"
  | "COMMENT_FLOOD"
  | "COMMENTS_CLOSED"
  | "COMMENT_REFUSED"
  | "DUPLICATE_COMMENT"
  | "REPLY_PARENT_GONE"
  | "SETUP_CLOSED"
  | "FORBIDDEN"
  | "ACCOUNT_NOT_FOUND"
  | "ACCOUNT_EXISTS"
  | "INVITATION_INVALID"
  | "RESET_LINK_INVALID"
  | "TWO_FACTOR_EXPIRED"
  | "IMPORT_REFUSED"
  | "IMPORT_TOO_LARGE"
  | "IMPORT_RUNNING"
  | "MEDIA_UNSUPPORTED"
  | "MEDIA_TOO_LARGE"
  | "MEDIA_NOT_FOUND"
  | "MEDIA_IN_USE"
  | "EMAIL_INVALID"
  | "SUBSCRIPTIONS_CLOSED"
  | "EMAIL_SET_BY_ENVIRONMENT"
  | "EMAIL_TEST_FAILED"
  | "SUBSCRIPTION_LINK_INVALID"
  | "REPLY_UNSUBSCRIBE_LINK_INVALID"
  | "SUBSCRIPTION_LINK_EXPIRED"
  | "SUBSCRIBER_EXISTS"
  | "APP_KEY_NAME_TAKEN"
  | "APP_KEY_NOT_FOUND"
  | "APP_KEY_REFUSED"
  | "UPDATE_COLLISION"
  | "WEBMENTION_REFUSED"
  | "WEBHOOK_REFUSED"
  | "WEBHOOK_NOT_FOUND"
  | "DATABASE_UNAVAILABLE";

export const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  POST_NOT_FOUND: 404,
  PAGE_NOT_FOUND: 404,
  PAGE_SLUG_RESERVED: 400,
  POST_NOT_AVAILABLE: 404,
  REVISION_NOT_FOUND: 404,
  PREVIEW_NOT_FOUND: 404,
  CATEGORY_NOT_FOUND: 404,
  CATEGORY_TAKEN: 409,
  CATEGORY_UNKNOWN: 400,
  LAST_CATEGORY: 409,
  SLUG_TAKEN: 409,
  INVALID_CREDENTIALS: 401,
  RATE_LIMITED: 429,
  COMMENT_FLOOD: 429,
  COMMENTS_CLOSED: 403,
  COMMENT_REFUSED: 400,
  DUPLICATE_COMMENT: 409,
  REPLY_PARENT_GONE: 409,
  SETUP_CLOSED: 410,
  FORBIDDEN: 403,
  ACCOUNT_NOT_FOUND: 404,
  ACCOUNT_EXISTS: 409,
  INVITATION_INVALID: 410,
  RESET_LINK_INVALID: 410,
  TWO_FACTOR_EXPIRED: 401,
  IMPORT_REFUSED: 400,
  IMPORT_TOO_LARGE: 413,
  IMPORT_RUNNING: 409,
  MEDIA_UNSUPPORTED: 415,
  MEDIA_TOO_LARGE: 413,
  MEDIA_NOT_FOUND: 404,
  MEDIA_IN_USE: 409,
  EMAIL_INVALID: 400,
  SUBSCRIPTIONS_CLOSED: 403,
  EMAIL_SET_BY_ENVIRONMENT: 409,
  // The mail server (upstream of the blog) refused or could not be reached.
  EMAIL_TEST_FAILED: 502,
  SUBSCRIPTION_LINK_INVALID: 400,
  REPLY_UNSUBSCRIBE_LINK_INVALID: 400,
  SUBSCRIPTION_LINK_EXPIRED: 410,
  SUBSCRIBER_EXISTS: 409,
  APP_KEY_NAME_TAKEN: 409,
  APP_KEY_NOT_FOUND: 404,
  APP_KEY_REFUSED: 401,
  UPDATE_COLLISION: 409,
  WEBMENTION_REFUSED: 400,
  WEBHOOK_REFUSED: 400,
  WEBHOOK_NOT_FOUND: 404,
  DATABASE_UNAVAILABLE: 503,
};

export class DomainError extends Error {
  override name = "DomainError";
  readonly code: DomainErrorCode;
  constructor(code: DomainErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }

  /** Seconds a client should wait before trying again, when waiting helps. */
  get retryAfterSeconds(): number | undefined {
    return undefined;
  }
}

export class RateLimitedError extends DomainError {
  readonly #retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, code: "RATE_LIMITED" | "COMMENT_FLOOD" = "RATE_LIMITED") {
    super(code, "Too many attempts");
    this.#retryAfterSeconds = retryAfterSeconds;
  }

  override get retryAfterSeconds(): number {
    return this.#retryAfterSeconds;
  }
}

/** A database call failed or the database is out of reach; the cause is kept for the log. */
export class DatabaseUnavailableError extends DomainError {
  override name = "DatabaseUnavailableError";
  constructor(message = "The database is unavailable", options?: { cause?: unknown }) {
    super("DATABASE_UNAVAILABLE", message, options);
  }

  /** Long enough for a restarting database, short enough that a reader retries soon. */
  override get retryAfterSeconds(): number {
    return 5;
  }
}

export function isDomainError(error: unknown, code?: DomainErrorCode): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

/** A post or a page that shows an image. */
export interface MediaUser {
  id: string;
  title: string;
}

/** Deleting an image refused while posts or pages show it; they are listed for the writer. */
export class MediaInUseError extends DomainError {
  override name = "MediaInUseError";
  readonly posts: MediaUser[];
  readonly pages: MediaUser[];
  constructor(posts: MediaUser[], pages: MediaUser[] = []) {
    super("MEDIA_IN_USE", "This image is used by posts or pages; remove it from them first");
    this.posts = posts;
    this.pages = pages;
  }
}
