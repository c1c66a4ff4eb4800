import type { Kysely } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import type { Dialect } from "./connect.ts";
import { initialSchema } from "./migrations/0001-initial.ts";
import { setupTokensSchema } from "./migrations/0002-setup-tokens.ts";
import type { Database } from "./schema.ts";

// Listed here rather than read from disk so the migrations travel inside the server bundle.
function listMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    "0001-initial": initialSchema(dialect),
    "0002-setup-tokens": setupTokensSchema(dialect),
  };
}

class StaticMigrationProvider implements MigrationProvider {
  readonly #dialect: Dialect;
  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    return listMigrations(this.#dialect);
  }
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

/** Brings the schema up to date; safe to run again and from several servers at once (Kysely locks). */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(dialect) });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === "Error");
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`.replace("  ", " "));
  }
  return results.filter((result) => result.status === "Success").map((result) => result.migrationName);
}
