import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/**
 * The categories a new blog starts with (docs/spec.md §2), in this order. After that the
 * categories are the writer's (Admin → Categories, docs/decisions/0020-categories.md).
 */
export const CATEGORIES = ["Development", "Technology", "Design", "Business", "Marketing", "Tutorials"] as const;

/** A category's name, as posts store it. */
export type Category = string;

/** A category as the writer keeps it: its name, the address it answers at, its description, in the writer's order. */
export interface CategoryRecord {
  id: string;
  name: string;
  slug: string;
  description: string;
  position: number;
}

export const CATEGORY_LIMITS = { name: 40, description: 300 } as const;

/**
 * The last part of a category's address: its name in lower case, anything but letters and digits
 * joined by one hyphen ("Web Design" → "web-design"), so the spec's six keep `/category/design`.
 */
export function categorySlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The slug a route value asks for: the spec capitalises the value's first letter for the lookup
 * (docs/spec.md §2), so `/category/Development` is Development and `/category/DEVELOPMENT` is not.
 */
export function slugFromRouteValue(routeValue: string): string {
  return routeValue.charAt(0).toLowerCase() + routeValue.slice(1);
}

export function categoryPath(category: string): string {
  return `/category/${encodeURIComponent(categorySlug(category))}`;
}

export const CATEGORY_NAME_REQUIRED = "Please enter the category's name";

const nameSchema = z
  .string()
  .trim()
  .min(1, CATEGORY_NAME_REQUIRED)
  .max(CATEGORY_LIMITS.name, `The name must be at most ${CATEGORY_LIMITS.name} characters`)
  .refine((name) => categorySlug(name) !== "", "The name needs a letter or a digit");

const descriptionSchema = z
  .string()
  .trim()
  .max(CATEGORY_LIMITS.description, `The description must be at most ${CATEGORY_LIMITS.description} characters`);

/** Add a category (Admin → Categories). */
export const addCategoryForm = defineForm({
  fields: ["name", "description"],
  read: (formData: FormData) => ({
    name: formText(formData, "name"),
    description: formText(formData, "description"),
  }),
  schema: z.object({ name: nameSchema, description: descriptionSchema }),
});

/** What the writer asked of one category. */
export type CategoryChange =
  | { action: "rename"; id: string; name: string }
  | { action: "describe"; id: string; description: string }
  | { action: "move"; id: string; to: number }
  | { action: "delete"; id: string; moveTo: string };

const changeSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("rename"), category: z.string().min(1), name: nameSchema }),
    z.object({ intent: z.literal("describe"), category: z.string().min(1), description: descriptionSchema }),
    z.object({ intent: z.literal("move"), category: z.string().min(1), to: z.coerce.number().int().min(-1) }),
    z.object({
      intent: z.literal("delete"),
      category: z.string().min(1),
      moveTo: z.string().min(1, "Please choose where its posts go"),
    }),
  ],
  { error: "Unknown change" },
);

/** Rename, Describe, Move up/down and Delete: each row's forms post these. */
export const categoryChangeForm = defineForm({
  fields: ["intent", "category", "name", "description", "to", "moveTo"],
  read: (formData: FormData) => ({
    intent: formText(formData, "intent"),
    category: formText(formData, "category"),
    name: formText(formData, "name"),
    description: formText(formData, "description"),
    to: formText(formData, "to"),
    moveTo: formText(formData, "moveTo"),
  }),
  schema: changeSchema.transform((input): CategoryChange => {
    if (input.intent === "rename") return { action: "rename", id: input.category, name: input.name };
    if (input.intent === "describe") return { action: "describe", id: input.category, description: input.description };
    if (input.intent === "move") return { action: "move", id: input.category, to: input.to };
    return { action: "delete", id: input.category, moveTo: input.moveTo };
  }),
});

export const CATEGORIES_SAVE_FAILED_MESSAGE = "The categories could not be saved. Please try again.";
