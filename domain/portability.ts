import { z } from "./zod.ts";
import { CATEGORIES, CATEGORY_LIMITS, type Category, categorySlug } from "./categories.ts";
import { defineForm, formText, formTexts } from "./forms.ts";
import { mergeCategoryRows } from "./import-categories.ts";

export const EXPORT_FORMAT = "inkwell-export";
export const EXPORT_VERSION = 1;

/** Imports are read whole; anything larger is refused before a byte of it is parsed. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** What becomes of WordPress and Ghost pages: pages here (the default), posts, or nothing. */
export const PAGE_OPTIONS = ["pages", "posts", "skip"] as const;
export type PageOption = (typeof PAGE_OPTIONS)[number];

export interface ImportOptions {
  /** Source category or tag name (any case) → one of the blog's categories (refuseUnknownImportCategories). */
  categoryMap: Record<string, Category>;
  /** WordPress and Ghost pages: imported as pages, as posts, or left out. */
  pages: PageOption;
  /** Where a post goes when none of its categories or tags is mapped, and it names no category of its own. */
  defaultCategory: Category;
}

export const DEFAULT_IMPORT_OPTIONS: ImportOptions = {
  categoryMap: {},
  pages: "pages",
  defaultCategory: CATEGORIES[0],
};

export interface ImportReport {
  format: "inkwell" | "ghost" | "wordpress";
  created: { posts: number; comments: number; pages: number; settings: number };
  skipped: { item: string; reason: string }[];
  warnings: string[];
}

/** The report as lines of text, for the CLI and the admin page alike. */
export function describeImportReport(report: ImportReport): string[] {
  const { created, skipped, warnings } = report;
  return [
    `Imported from a ${report.format === "inkwell" ? "Inkwell" : report.format === "ghost" ? "Ghost" : "WordPress"} export: ` +
      `${created.posts} posts, ${created.comments} comments, ${created.pages} pages, ${created.settings} settings created; ${skipped.length} skipped.`,
    ...skipped.map((skip) => `Skipped ${skip.item}: ${skip.reason}`),
    ...warnings.map((warning) => `Warning: ${warning}`),
  ];
}

const IMPORT_MAX_MEGABYTES = IMPORT_MAX_BYTES / 1024 / 1024;
export const IMPORT_TOO_LARGE_MESSAGE = `The file is too large: imports may be at most ${IMPORT_MAX_MEGABYTES} MB.`;
const CATEGORY_MAP_EXAMPLE = '{"news": "Business", "javascript": "Development"}';

/** A category name: one of the blog's, or one an import creates. */
export const categorySchema = z
  .string({ error: "must be a category name" })
  .trim()
  .min(1, "must be a category name")
  .max(CATEGORY_LIMITS.name, `must be a name of at most ${CATEGORY_LIMITS.name} characters`)
  .refine((name) => categorySlug(name) !== "", "must be a name with a letter or a digit");
export const categoryMapSchema = z.record(z.string(), categorySchema);

/**
 * What an import's categories must be, checked against the blog's own once they are known (its
 * action and the CLI): the map files posts under categories the blog has, and so does the
 * default; a source category the map leaves alone becomes a new one (docs/decisions/0020).
 */
export function refuseUnknownImportCategories(
  options: Pick<ImportOptions, "categoryMap" | "defaultCategory">,
  names: readonly string[],
): { categoryMap?: string; defaultCategory?: string } {
  const choices = `must be one of ${names.join(", ")}`;
  const unknown = Object.entries(options.categoryMap).find(([, category]) => !names.includes(category));
  return {
    ...(unknown
      ? {
          categoryMap: `In the category map, "${unknown[0]}" ${choices}: map names to categories, such as ${CATEGORY_MAP_EXAMPLE}`,
        }
      : {}),
    // Said after the field's name: "The default category …" on the form, "--default-category …" by the CLI.
    ...(names.includes(options.defaultCategory) ? {} : { defaultCategory: choices }),
  };
}

/** The chosen file as both sides see it: the browser has the File, the action only its name. */
function chosenFile(value: FormDataEntryValue | null): { name: string; size: number } {
  return typeof value === "object" && value !== null ? { name: value.name, size: value.size } : { name: "", size: 0 };
}

/** The admin's import upload (Tools page): the file, and the options the CLI takes as flags. */
export const importForm = defineForm({
  fields: ["file", "categoryMap", "defaultCategory", "pages"] as const,
  read: (formData: FormData) => ({
    file: chosenFile(formData.get("file")),
    categoryMap: mergeCategoryRows(
      formText(formData, "categoryMap"),
      formTexts(formData, "mapFrom"),
      formTexts(formData, "mapTo"),
    ),
    defaultCategory: formText(formData, "defaultCategory"),
    pages: formText(formData, "pages"),
  }),
  schema: z.object({
    file: z
      .object({ name: z.string(), size: z.number() })
      .refine((file) => file.name !== "", "Choose an export file to import")
      .refine((file) => file.size <= IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_MESSAGE),
    categoryMap: z.string().transform((text, context): Record<string, Category> => {
      if (!text.trim()) return {};
      let map: unknown;
      try {
        map = JSON.parse(text);
      } catch {
        context.addIssue({ code: "custom", message: `The category map must be JSON, such as ${CATEGORY_MAP_EXAMPLE}` });
        return z.NEVER;
      }
      const parsed = categoryMapSchema.safeParse(map);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `"${issue.path.join(".")}" ` : "";
      context.addIssue({
        code: "custom",
        message: `In the category map, ${where}${issue?.message ?? "is invalid"}: map names to categories, such as ${CATEGORY_MAP_EXAMPLE}`,
      });
      return z.NEVER;
    }),
    defaultCategory: z.string().trim().min(1, "Choose a default category"),
    pages: z.enum(PAGE_OPTIONS, { error: "Choose what to do with pages" }),
  }),
});

export type ImportFormValues = ReturnType<typeof importForm.read>;
