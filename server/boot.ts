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
  if (applied.length > 0) {
    logger.debug({ migrations: applied }, "migrations applied");
    const where = config.database.dialect === "sqlite" ? ` at ${config.database.filename}` : "";
    logger.info(`Database ready${where}: ${applied.length} ${applied.length === 1 ? "change" : "changes"} applied`);
  }
  if (config.initialAdmin) {
    const created = await services.auth.ensureAdmin(config.initialAdmin.email, config.initialAdmin.password);
    if (created) logger.info({ email: config.initialAdmin.email }, "admin account created from ADMIN_EMAIL");
  }
  if (config.loadDemoContent) {
    const added = await seedDemoContent(handle.db, services.comments, { siteUrl: config.siteUrl, now: new Date() });
    if (added > 0) logger.info(`Loaded ${added} demo posts to look around with (set BLOG_DEMO=0 to skip them)`);
  }
}
