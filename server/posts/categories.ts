import type { Kysely } from "kysely";
import { type CategoryChange, type CategoryRecord, categorySlug, slugFromRouteValue } from "#domain/categories.ts";
import { moveNavigationItem } from "#domain/navigation.ts";
import { DomainError } from "#domain/errors.ts";
import type { Actor, AuditLog } from "../accounts/index.ts";
import type { ContentChanges } from "../kernel/content-changes.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as categories from "./repositories/categories.ts";

export interface CategoryServiceDeps {
  db: Kysely<Database>;
  audit: AuditLog;
  changes: ContentChanges;
}

/** Where a category's address leads: the category, and for an address it had before, the path it answers at now (a 301). */
export type CategoryAtAddress = { category: CategoryRecord; movedTo?: string };

const NOT_FOUND_MESSAGE = "Category not found";

/**
 * The writer's categories (docs/decisions/0020-categories.md): posts store their category's
 * name, so a rename moves the posts with it in one transaction, and every address a category
 * had answers 301 to the one it has now.
 */
export function createCategoryService({ db, audit, changes }: CategoryServiceDeps) {
  async function requireCategory(id: string): Promise<CategoryRecord> {
    const found = await categories.findCategoryById(db, id);
    if (!found)
      throw new DomainError("CATEGORY_NOT_FOUND", "That category no longer exists. The list shows them as saved.");
    return found;
  }

  async function refuseTaken(name: string, slug: string, exceptId?: string): Promise<void> {
    if (await categories.isCategoryTaken(db, name, slug, exceptId)) {
      throw new DomainError(
        "CATEGORY_TAKEN",
        `Another category already has this name or the address /category/${slug}`,
      );
    }
  }

  /** Every reader's page shows categories (cards, badges, the footer): empty the page cache. */
  function announce(): void {
    changes.publish(["lists", "navigation"], "category");
  }

  return {
    /** Every category, in the writer's order. */
    list: () => categories.listCategories(db),

    /** The names in the writer's order, and every address a category answers at, current or former, to its name now (for menus). */
    addresses: () => categories.listCategoryAddresses(db),

    /** The category a route value names, by the spec's lookup (docs/spec.md §2); CATEGORY_NOT_FOUND otherwise. */
    async atAddress(routeValue: string): Promise<CategoryAtAddress> {
      const found = await categories.findCategoryAtSlug(db, slugFromRouteValue(routeValue));
      if (!found) throw new DomainError("CATEGORY_NOT_FOUND", NOT_FOUND_MESSAGE);
      const { category } = found;
      return found.former ? { category, movedTo: `/category/${encodeURIComponent(category.slug)}` } : { category };
    },

    async add(input: { name: string; description: string }, actor: Actor): Promise<CategoryRecord> {
      const slug = categorySlug(input.name);
      await refuseTaken(input.name, slug);
      const added = await db.transaction().execute(async (trx) => {
        const record = await categories.insertCategory(trx, { ...input, slug });
        await audit.record(actor, "categories-changed", `added "${record.name}"`, trx);
        return record;
      });
      announce();
      return added;
    },

    /** One change the writer asked for on Admin → Categories; returns a line saying what changed. */
    async change(change: CategoryChange, actor: Actor): Promise<string> {
      const category = await requireCategory(change.id);
      let summary: string;
      if (change.action === "rename") {
        const slug = categorySlug(change.name);
        await refuseTaken(change.name, slug, category.id);
        summary = `renamed "${category.name}" to "${change.name}"`;
        await db.transaction().execute(async (trx) => {
          await categories.renameCategory(trx, category, change.name, slug);
          await audit.record(actor, "categories-changed", summary, trx);
        });
      } else if (change.action === "describe") {
        summary = `described "${category.name}"`;
        await db.transaction().execute(async (trx) => {
          await categories.describeCategory(trx, category.id, change.description);
          await audit.record(actor, "categories-changed", summary, trx);
        });
      } else if (change.action === "move") {
        summary = `moved "${category.name}"`;
        await db.transaction().execute(async (trx) => {
          const order = moveNavigationItem(await categories.listCategories(trx), category.id, change.to);
          await categories.orderCategories(
            trx,
            order.map((item) => item.id),
          );
          await audit.record(actor, "categories-changed", summary, trx);
        });
      } else {
        if ((await categories.listCategories(db)).length <= 1) {
          throw new DomainError(
            "LAST_CATEGORY",
            "A blog needs at least one category: add another before deleting this one",
          );
        }
        if (change.moveTo === category.id) {
          throw new DomainError("CATEGORY_NOT_FOUND", "Choose another category for its posts");
        }
        const into = await requireCategory(change.moveTo);
        summary = `deleted "${category.name}", its posts moved to "${into.name}"`;
        await db.transaction().execute(async (trx) => {
          await categories.deleteCategoryInto(trx, category, into);
          await audit.record(actor, "categories-changed", summary, trx);
        });
      }
      announce();
      return summary;
    },
  };
}

/** Adds each of `names` that no category has yet (by name or address); the names added, in order. */
export async function addMissingCategories(
  db: Parameters<typeof categories.listCategories>[0],
  names: readonly string[],
): Promise<string[]> {
  const added: string[] = [];
  for (const name of names) {
    const slug = categorySlug(name);
    if (slug === "" || (await categories.isCategoryTaken(db, name, slug))) continue;
    await categories.insertCategory(db, { name, slug, description: "" });
    added.push(name);
  }
  return added;
}

export type CategoryService = ReturnType<typeof createCategoryService>;
