import type { Kysely } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import type { Dialect } from "./connect.ts";
import { initialSchema } from "./migrations/0001-initial.ts";
import { setupTokensSchema } from "./migrations/0002-setup-tokens.ts";
import { postSlugsSchema } from "./migrations/0003-post-slugs.ts";
import { commentModerationSchema } from "./migrations/0004-comment-moderation.ts";
import { accountsSchema } from "./migrations/0005-accounts.ts";
import { writersDeskSchema } from "./migrations/0006-writers-desk.ts";
import { searchPageIndexSchema } from "./migrations/0007-search-page-index.ts";
import { importSourcesSchema } from "./migrations/0009-import-sources.ts";
import { mediaSchema } from "./migrations/0008-media.ts";
import { publicListIndexesSchema } from "./migrations/0010-public-list-indexes.ts";
import { searchInListOrderSchema } from "./migrations/0011-search-in-list-order.ts";
import { publicCountIndexesSchema } from "./migrations/0012-public-count-indexes.ts";
import { publishedPostCountsSchema } from "./migrations/0013-published-post-counts.ts";
import { postCanonicalUrlSchema } from "./migrations/0014-post-canonical-url.ts";
import { newsletterSchema } from "./migrations/0015-newsletter.ts";
import { postNewsletterSchema } from "./migrations/0016-post-newsletter.ts";
import { fediverseSchema } from "./migrations/0017-fediverse.ts";
import { fedifyStoreSchema } from "./migrations/0018-fedify-store.ts";
import { analyticsSchema } from "./migrations/0019-analytics.ts";
import { pagesSchema } from "./migrations/0020-pages.ts";
import { rateLimitKeyHashesSchema } from "./migrations/0021-rate-limit-key-hashes.ts";
import { subscriberAddressKeySchema } from "./migrations/0022-subscriber-address-key.ts";
import { fediverseCreateIdsSchema } from "./migrations/0023-fediverse-create-ids.ts";
import { subscriberImportsSchema } from "./migrations/0024-subscriber-imports.ts";
import { commentThreadsSchema } from "./migrations/0025-comment-threads.ts";
import { categoriesSchema } from "./migrations/0026-categories.ts";
import { authorsSchema } from "./migrations/0027-authors.ts";
import { commentEmailsSchema } from "./migrations/0028-comment-emails.ts";
import { webmentionSchema } from "./migrations/0029-webmention.ts";
import { appKeysSchema } from "./migrations/0030-app-keys.ts";
import { emailServerSchema } from "./migrations/0033-email-server.ts";
import { commentThreadStartersSchema } from "./migrations/0034-comment-thread-starters.ts";
import { indieAuthSchema } from "./migrations/0036-indieauth.ts";
import { postCountsAndArrivalsSchema } from "./migrations/0037-post-counts-and-arrivals.ts";
import { webhooksSchema } from "./migrations/0038-webhooks.ts";
import { passwordResetsSchema } from "./migrations/0039-password-resets.ts";
import { linkPreviewsSchema } from "./migrations/0040-link-previews.ts";
import { writingViewSchema } from "./migrations/0041-writing-view.ts";
import type { Database } from "./schema.ts";

// Listed here rather than read from disk so the migrations travel inside the server bundle.
function listMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    "0001-initial": initialSchema(dialect),
    "0002-setup-tokens": setupTokensSchema(dialect),
    "0003-post-slugs": postSlugsSchema(dialect),
    "0004-comment-moderation": commentModerationSchema(dialect),
    "0005-accounts": accountsSchema(dialect),
    "0006-writers-desk": writersDeskSchema(dialect),
    "0007-search-page-index": searchPageIndexSchema(),
    "0009-import-sources": importSourcesSchema(),
    "0008-media": mediaSchema(dialect),
    "0010-public-list-indexes": publicListIndexesSchema(),
    "0011-search-in-list-order": searchInListOrderSchema(dialect),
    "0012-public-count-indexes": publicCountIndexesSchema(),
    "0013-published-post-counts": publishedPostCountsSchema(dialect),
    "0014-post-canonical-url": postCanonicalUrlSchema(),
    "0015-newsletter": newsletterSchema(dialect),
    "0016-post-newsletter": postNewsletterSchema(),
    "0017-fediverse": fediverseSchema(),
    "0018-fedify-store": fedifyStoreSchema(dialect),
    "0019-analytics": analyticsSchema(dialect),
    "0020-pages": pagesSchema(dialect),
    "0021-rate-limit-key-hashes": rateLimitKeyHashesSchema(),
    "0022-subscriber-address-key": subscriberAddressKeySchema(),
    "0023-fediverse-create-ids": fediverseCreateIdsSchema(dialect),
    "0024-subscriber-imports": subscriberImportsSchema(),
    "0025-comment-threads": commentThreadsSchema(),
    "0026-categories": categoriesSchema(),
    "0027-authors": authorsSchema(dialect),
    "0028-comment-emails": commentEmailsSchema(),
    "0029-webmention": webmentionSchema(dialect),
    "0030-app-keys": appKeysSchema(),
    "0033-email-server": emailServerSchema(),
    "0034-comment-thread-starters": commentThreadStartersSchema(),
    "0036-indieauth": indieAuthSchema(),
    "0037-post-counts-and-arrivals": postCountsAndArrivalsSchema(dialect),
    "0038-webhooks": webhooksSchema(dialect),
    "0039-password-resets": passwordResetsSchema(),
    "0040-link-previews": linkPreviewsSchema(),
    "0041-writing-view": writingViewSchema(),
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

export function createMigrator(db: Kysely<Database>, dialect: Dialect): Migrator {
  // Numbers are handed out to issues in parallel, so a migration can land after a higher-numbered
  // one has already run somewhere (0006 after 0007); each is independent of the others' order.
  return new Migrator({ db, provider: new StaticMigrationProvider(dialect), allowUnorderedMigrations: true });
}

/** Brings the schema up to date; safe to run again and from several servers at once (Kysely locks). */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = createMigrator(db, dialect);
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === "Error");
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`.replace("  ", " "));
  }
  return results.filter((result) => result.status === "Success").map((result) => result.migrationName);
}
