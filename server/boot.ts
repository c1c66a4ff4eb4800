import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/connect.ts";
import { migrateToLatest } from "./db/migrate.ts";
import type { Logger } from "./logger.ts";
import { seedDemoContent } from "./services/demo.ts";
import type { Services } from "./services/index.ts";

/** Everything that must hold before the first request: schema, first admin, demo content. */
export async function prepareDatabase(
  handle: DatabaseHandle,
  config: Config,
  services: Services,
  logger: Logger,
): Promise<void> {
  const applied = await migrateToLatest(handle.db, handle.dialect);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  if (config.initialAdmin) {
    const created = await services.auth.ensureAdmin(config.initialAdmin.email, config.initialAdmin.password);
    if (created) logger.info({ email: config.initialAdmin.email }, "admin account created from ADMIN_EMAIL");
  }
  if (config.loadDemoContent) {
    const added = await seedDemoContent(handle.db, services.comments, { siteUrl: config.siteUrl, now: new Date() });
    if (added > 0) logger.info({ posts: added }, "demo content loaded (set BLOG_DEMO=0 to skip)");
  }
}
