/** Expected failures with a stable code; routes turn them into responses at the edge. */
export type DomainErrorCode =
  | "POST_NOT_FOUND"
  | "POST_NOT_AVAILABLE"
  | "CATEGORY_NOT_FOUND"
  | "INVALID_CREDENTIALS"
  | "RATE_LIMITED"
  | "READ_FAILED"
  | "WRITE_FAILED"
  | "SETUP_CLOSED";

export class DomainError extends Error {
  override name = "DomainError";
  readonly code: DomainErrorCode;
  constructor(code: DomainErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("RATE_LIMITED", "Too many attempts");
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isDomainError(error: unknown, code?: DomainErrorCode): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

/** Runs a database read; any failure becomes one typed READ_FAILED error keeping the cause for the log. */
export async function guardRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("READ_FAILED", "Database read failed", { cause: error });
  }
}

export async function guardWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("WRITE_FAILED", "Database write failed", { cause: error });
  }
}
