import { DatabaseUnavailableError, DomainError } from "#domain/errors.ts";

/**
 * Runs a database call; any failure that is not already a domain error becomes one
 * DatabaseUnavailableError keeping the cause for the log, so routes answer 503 with
 * their spec message while programming errors elsewhere still reach the error boundary.
 */
export async function guardDatabase<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DatabaseUnavailableError("Database call failed", { cause: error });
  }
}
