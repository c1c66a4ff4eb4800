// The writer's categories (migration 0026) and the posts filed under them: a rename or a
// delete moves the posts in the same transaction, and the published-post counters
// (migration 0013) follow through their triggers.
import type { CategoryRecord } from "#domain/categories.ts";
import { type Db, newId } from "../../kernel/rows.ts";

const CATEGORY_COLUMNS = ["id", "name", "slug", "description", "position"] as const;

/** Every category in the writer's order. */
export async function listCategories(db: Db): Promise<CategoryRecord[]> {
  return db.selectFrom("categories").select(CATEGORY_COLUMNS).orderBy("position").orderBy("name").execute();
}

export async function findCategoryById(db: Db, id: string): Promise<CategoryRecord | undefined> {
  return db.selectFrom("categories").select(CATEGORY_COLUMNS).where("id", "=", id).executeTakeFirst();
}

export async function findCategoryByName(db: Db, name: string): Promise<CategoryRecord | undefined> {
  return db.selectFrom("categories").select(CATEGORY_COLUMNS).where("name", "=", name).executeTakeFirst();
}

/** The category at `slug`, and whether that is an address it had before (a 301 to its own). */
export async function findCategoryAtSlug(
  db: Db,
  slug: string,
): Promise<{ category: CategoryRecord; former: boolean } | undefined> {
  const current = await db
    .selectFrom("categories")
    .select(CATEGORY_COLUMNS)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (current) return { category: current, former: false };
  const former = await db
    .selectFrom("category_former_slugs")
    .innerJoin("categories", "categories.id", "category_former_slugs.category_id")
    .select(CATEGORY_COLUMNS.map((column) => `categories.${column}` as const))
    .where("category_former_slugs.slug", "=", slug)
    .executeTakeFirst();
  return former ? { category: former, former: true } : undefined;
}

/** The category names in the writer's order, and every address a category answers at, current and former, to its name now. */
export async function listCategoryAddresses(db: Db): Promise<{ names: string[]; addresses: Map<string, string> }> {
  const [current, former] = await Promise.all([
    db.selectFrom("categories").select(["slug", "name"]).orderBy("position").orderBy("name").execute(),
    db
      .selectFrom("category_former_slugs")
      .innerJoin("categories", "categories.id", "category_former_slugs.category_id")
      .select(["category_former_slugs.slug", "categories.name"])
      .execute(),
  ]);
  return {
    names: current.map((row) => row.name),
    addresses: new Map([...former, ...current].map((row) => [row.slug, row.name])),
  };
}

/** Whether a category other than `exceptId` has this name or answers at this slug. */
export async function isCategoryTaken(db: Db, name: string, slug: string, exceptId?: string): Promise<boolean> {
  let query = db
    .selectFrom("categories")
    .select("id")
    .where((eb) => eb.or([eb("name", "=", name), eb("slug", "=", slug)]));
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A new category at the end of the writer's order; a former address of another category becomes its own. */
export async function insertCategory(
  db: Db,
  category: Pick<CategoryRecord, "name" | "slug" | "description">,
): Promise<CategoryRecord> {
  const last = await db
    .selectFrom("categories")
    .select((eb) => eb.fn.max("position").as("position"))
    .executeTakeFirst();
  const record = { id: newId(), ...category, position: Number(last?.position ?? -1) + 1 };
  await db.deleteFrom("category_former_slugs").where("slug", "=", category.slug).execute();
  await db.insertInto("categories").values(record).execute();
  return record;
}

/**
 * Renames a category and every post filed under it; its old address is kept as a former one.
 * Call inside a transaction: the posts' triggers move the published counts to the new name.
 */
export async function renameCategory(db: Db, category: CategoryRecord, name: string, slug: string): Promise<void> {
  await db.deleteFrom("category_former_slugs").where("slug", "=", slug).execute();
  if (category.slug !== slug) {
    await db.insertInto("category_former_slugs").values({ slug: category.slug, category_id: category.id }).execute();
  }
  await db.updateTable("categories").set({ name, slug }).where("id", "=", category.id).execute();
  await db.updateTable("posts").set({ category: name }).where("category", "=", category.name).execute();
  await dropEmptyCount(db, category.name);
}

export async function describeCategory(db: Db, id: string, description: string): Promise<void> {
  await db.updateTable("categories").set({ description }).where("id", "=", id).execute();
}

/** Writes the writer's order: `ids` from first to last. */
export async function orderCategories(db: Db, ids: readonly string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.updateTable("categories").set({ position }).where("id", "=", id).execute();
  }
}

/**
 * Deletes a category after moving its posts into `into`; its addresses, current and former,
 * become former addresses of `into`, so links to it still reach its posts. Call inside a transaction.
 */
export async function deleteCategoryInto(db: Db, category: CategoryRecord, into: CategoryRecord): Promise<number> {
  const moved = await db
    .updateTable("posts")
    .set({ category: into.name })
    .where("category", "=", category.name)
    .executeTakeFirst();
  await db
    .updateTable("category_former_slugs")
    .set({ category_id: into.id })
    .where("category_id", "=", category.id)
    .execute();
  await db.insertInto("category_former_slugs").values({ slug: category.slug, category_id: into.id }).execute();
  await db.deleteFrom("categories").where("id", "=", category.id).execute();
  await dropEmptyCount(db, category.name);
  return Number(moved.numUpdatedRows);
}

/** A name no post is filed under any more keeps no counter row (migration 0013's table stays one row per category). */
async function dropEmptyCount(db: Db, name: string): Promise<void> {
  await db.deleteFrom("published_post_counts").where("category", "=", name).where("posts", "=", 0).execute();
}
