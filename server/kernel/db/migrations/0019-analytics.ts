import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Cookie-free analytics (docs/decisions/0016-analytics.md). `analytics_events` holds the raw
 * views for `retentionDays`; `day` and `hour` are the site's time zone at the time of counting.
 * The rollups (`analytics_daily`, `analytics_monthly`, `analytics_hourly`) are kept for good and grow by the events
 * after `analytics_rollup_state.through_id`, so a dashboard reads them plus that short tail.
 * `analytics_salts` holds today's salt only; `analytics_feed_fetches` one row per feed fetcher a day.
 */
export function analyticsSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("analytics_events")
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) =>
          dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn("occurred_at", "text", (col) => col.notNull())
        .addColumn("day", "text", (col) => col.notNull())
        .addColumn("hour", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("path", "text", (col) => col.notNull())
        .addColumn("visitor_key", "text", (col) => col.notNull())
        .addColumn("source", "text")
        .addColumn("referrer_host", "text")
        .addColumn("utm_source", "text")
        .addColumn("utm_medium", "text")
        .addColumn("utm_campaign", "text")
        .addColumn("browser", "text", (col) => col.notNull())
        .addColumn("os", "text", (col) => col.notNull())
        .addColumn("device", "text", (col) => col.notNull())
        .addColumn("screen", "text", (col) => col.notNull())
        .addColumn("country", "text")
        .execute();
      await db.schema
        .createIndex("analytics_events_occurred_at")
        .on("analytics_events")
        .column("occurred_at")
        .execute();
      // A day's events, and whether a visitor was already counted that day (the rollup's question).
      await db.schema
        .createIndex("analytics_events_day_visitor")
        .on("analytics_events")
        .columns(["day", "visitor_key"])
        .execute();

      await db.schema
        .createTable("analytics_daily")
        .addColumn("day", "text", (col) => col.notNull())
        .addColumn("dimension", "text", (col) => col.notNull())
        .addColumn("value", "text", (col) => col.notNull())
        .addColumn("views", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("visitors", "integer", (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("analytics_daily_pk", ["day", "dimension", "value"])
        .execute();
      await db.schema
        .createIndex("analytics_daily_dimension_day")
        .on("analytics_daily")
        .columns(["dimension", "day"])
        .execute();

      // The same figures per month (visitors: the sum of each day's), so a year's lists read 12 rows a value, not 365.
      await db.schema
        .createTable("analytics_monthly")
        .addColumn("month", "text", (col) => col.notNull())
        .addColumn("dimension", "text", (col) => col.notNull())
        .addColumn("value", "text", (col) => col.notNull())
        .addColumn("views", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("visitors", "integer", (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("analytics_monthly_pk", ["dimension", "month", "value"])
        .execute();

      await db.schema
        .createTable("analytics_hourly")
        .addColumn("hour", "text", (col) => col.primaryKey())
        .addColumn("views", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("visitors", "integer", (col) => col.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("analytics_rollup_state")
        .addColumn("name", "text", (col) => col.primaryKey())
        .addColumn("through_id", "bigint", (col) => col.notNull().defaultTo(0))
        .addColumn("seen_id", "bigint", (col) => col.notNull().defaultTo(0))
        .addColumn("seen_at", "text", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("analytics_salts")
        .addColumn("day", "text", (col) => col.primaryKey())
        .addColumn("salt", "text", (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("analytics_feed_fetches")
        .addColumn("day", "text", (col) => col.notNull())
        .addColumn("fetcher", "text", (col) => col.notNull())
        .addColumn("fetcher_key", "text", (col) => col.notNull())
        .addColumn("subscribers", "integer")
        .addPrimaryKeyConstraint("analytics_feed_fetches_pk", ["day", "fetcher", "fetcher_key"])
        .execute();

      await db.schema
        .createTable("analytics_feed_daily")
        .addColumn("day", "text", (col) => col.notNull())
        .addColumn("fetcher", "text", (col) => col.notNull())
        .addColumn("fetchers", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("subscribers", "integer", (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("analytics_feed_daily_pk", ["day", "fetcher"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        "analytics_feed_daily",
        "analytics_feed_fetches",
        "analytics_salts",
        "analytics_rollup_state",
        "analytics_hourly",
        "analytics_monthly",
        "analytics_daily",
        "analytics_events",
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
