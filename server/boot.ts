import type { Config } from "./kernel/config.ts";
import type { DatabaseHandle } from "./kernel/db/connect.ts";
import { migrateToLatest } from "./kernel/db/migrate.ts";
import type { Logger } from "./kernel/logger.ts";
import { seedDemoContent } from "./demo/index.ts";
import type { Services } from "./composition.ts";

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
