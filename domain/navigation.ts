import { z } from "./zod.ts";
import { CATEGORIES, CATEGORY_LIMITS, categoryPath, categorySlug } from "./categories.ts";
import { defineForm, formText } from "./forms.ts";
import { BUILT_IN_PAGES } from "./page.ts";
import { pagePath } from "./site-urls.ts";

/**
 * The site's two menus (docs/decisions/0019-navigation.md): the header's links and the
 * footer's, each an ordered list of a label and a target. Until the owner edits them, the
 * defaults below are exactly what the header and footer always showed.
 */
export const NAVIGATION_MENUS = ["header", "footer"] as const;
export type NavigationMenu = (typeof NAVIGATION_MENUS)[number];

export const NAVIGATION_LIMITS = { label: 40, url: 2000, items: 12 } as const;

/**
 * Where a link goes. A page is named by its id, so a new slug never breaks the link; the
 * built-in pages also by their key, so the defaults hold on every install. The About and
 * source-code links are the addresses saved in Settings, followed as they change.
 */
export const NAVIGATION_TARGET_KINDS = [
  "home",
  "blog",
  "categories",
  "category",
  "page",
  "built-in-page",
  "about-link",
  "source-link",
  "url",
] as const;
export type NavigationTargetKind = (typeof NAVIGATION_TARGET_KINDS)[number];

const httpUrlSchema = z
  .string()
  .trim()
  .min(1, "Please enter the address")
  .max(NAVIGATION_LIMITS.url, `The address must be at most ${NAVIGATION_LIMITS.url} characters`)
  .pipe(z.url({ protocol: /^https?$/, message: "The address must start with http:// or https://" }));

/** A category by its name when the link was saved; the link follows the category's renames (`categories` below). */
const categorySchema = z
  .string({ error: "Please choose a category" })
  .trim()
  .min(1, "Please choose a category")
  .max(CATEGORY_LIMITS.name, "Please choose a category");
const pageIdSchema = z.string().trim().min(1, "Please choose a page").max(64, "Please choose a page");

export const navigationTargetSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("home") }),
    z.object({ kind: z.literal("blog") }),
    z.object({ kind: z.literal("categories") }),
    z.object({ kind: z.literal("category"), category: categorySchema }),
    z.object({ kind: z.literal("page"), id: pageIdSchema }),
    z.object({
      kind: z.literal("built-in-page"),
      page: z.enum(BUILT_IN_PAGES),
      /** A place on the page ("contact" for the footer's Contact link). */
      anchor: z
        .string()
        .regex(/^[A-Za-z][\w-]{0,59}$/)
        .optional(),
    }),
    z.object({ kind: z.literal("about-link") }),
    z.object({ kind: z.literal("source-link") }),
    z.object({ kind: z.literal("url"), url: httpUrlSchema }),
  ],
  { error: "Please choose what the link points to" },
);
export type NavigationTarget = z.infer<typeof navigationTargetSchema>;

const labelSchema = z
  .string()
  .trim()
  .min(1, "Please enter the link's label")
  .max(NAVIGATION_LIMITS.label, `The label must be at most ${NAVIGATION_LIMITS.label} characters`);

export const navigationItemSchema = z.object({
  /** Stable within its menu, so a button pressed on an old copy of the screen moves the link it showed. */
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  label: labelSchema,
  target: navigationTargetSchema,
});
export type NavigationItem = z.infer<typeof navigationItemSchema>;

const TOO_MANY_MESSAGE = `A menu holds at most ${NAVIGATION_LIMITS.items} links. Remove one first.`;

const menuSchema = z
  .array(navigationItemSchema)
  .max(NAVIGATION_LIMITS.items, TOO_MANY_MESSAGE)
  .refine((items) => new Set(items.map((item) => item.id)).size === items.length, "Each link needs its own id");

/** The one schema for both menus: what the admin saves and what the settings hold. */
export const navigationSchema = z.object({ header: menuSchema, footer: menuSchema });
export type Navigation = z.infer<typeof navigationSchema>;

/** docs/spec.md §2: the footer links four categories (development, technology, design, business on a new blog). */
const FOOTER_CATEGORY_COUNT = 4;

/** A default link's id: the category's slug where it fits the ids' pattern. */
function footerCategoryId(name: string, index: number): string {
  const slug = categorySlug(name);
  return /^[a-z0-9-]{1,40}$/.test(slug) ? slug : `category-${index + 1}`;
}

/**
 * The links the header and footer show until the owner edits them: on a new blog exactly those
 * they always showed. The footer's categories are the first four of `categories`, the
 * writer's in their order (Admin → Categories), the spec's six where they are not known.
 */
export function defaultNavigation(categories: readonly string[] = CATEGORIES): Navigation {
  return {
    header: [
      { id: "home", label: "Home", target: { kind: "home" } },
      { id: "categories", label: "Categories", target: { kind: "categories" } },
      { id: "about", label: "About", target: { kind: "about-link" } },
    ],
    footer: [
      ...categories.slice(0, FOOTER_CATEGORY_COUNT).map((category, index) => ({
        id: footerCategoryId(category, index),
        label: category,
        target: { kind: "category" as const, category },
      })),
      { id: "about", label: "About", target: { kind: "built-in-page", page: "about" } },
      { id: "contact", label: "Contact", target: { kind: "built-in-page", page: "about", anchor: "contact" } },
      { id: "privacy", label: "Privacy", target: { kind: "built-in-page", page: "privacy" } },
      { id: "terms", label: "Terms", target: { kind: "built-in-page", page: "terms" } },
      { id: "source", label: "Source code", target: { kind: "source-link" } },
    ],
  };
}

/** The menus to show: the owner's, or the defaults (with the writer's categories when given) while they have saved none. */
export function navigationOrDefault(saved: Navigation | null | undefined, categories?: readonly string[]): Navigation {
  return saved ?? defaultNavigation(categories);
}

/** A link as a reader's page renders it. */
export interface NavigationLink {
  id: string;
  label: string;
  href: string;
  kind: NavigationTargetKind;
}

/** What targets resolve against: the Settings links and the current slugs of public pages. */
export interface NavigationAddresses {
  aboutUrl: string;
  sourceUrl: string;
  /** Published pages by id; a draft or deleted page is absent, and so is its link. */
  pageSlugs: ReadonlyMap<string, string>;
  /** Published built-in pages by key ("about" → its slug). */
  builtInPageSlugs: ReadonlyMap<string, string>;
  /**
   * Every address a category answers at, its own and those it had before a rename, to its
   * name now; absent where the categories are not known (the database out of reach).
   */
  categories?: ReadonlyMap<string, string>;
}

/**
 * Where a link to a category goes now and what it is called: a link saved under a name the
 * category has since changed follows it, and its label too while the label was that name; a
 * link to a category that is gone is left out.
 */
function resolveCategoryLink(
  item: NavigationItem & { target: { kind: "category" } },
  categories: ReadonlyMap<string, string> | undefined,
): { label: string; href: string } | undefined {
  const saved = item.target.category;
  if (categories === undefined) return { label: item.label, href: categoryPath(saved) };
  const current = categories.get(categorySlug(saved));
  if (current === undefined) return undefined;
  return { label: item.label === saved ? current : item.label, href: categoryPath(current) };
}

function targetHref(target: NavigationTarget, addresses: NavigationAddresses): string | undefined {
  switch (target.kind) {
    case "home":
      return "/";
    case "blog":
      return "/blog";
    case "categories":
      return "/categories";
    case "category":
      return categoryPath(target.category);
    case "page": {
      const slug = addresses.pageSlugs.get(target.id);
      return slug === undefined ? undefined : pagePath(slug);
    }
    case "built-in-page": {
      const slug = addresses.builtInPageSlugs.get(target.page);
      if (slug === undefined) return undefined;
      return target.anchor ? `${pagePath(slug)}#${target.anchor}` : pagePath(slug);
    }
    case "about-link":
      return addresses.aboutUrl;
    case "source-link":
      return addresses.sourceUrl;
    case "url":
      return target.url;
  }
}

/** A menu's links in order, leaving out those whose page is not public now. */
export function resolveNavigationLinks(
  items: readonly NavigationItem[],
  addresses: NavigationAddresses,
): NavigationLink[] {
  return items.flatMap((item): NavigationLink[] => {
    const { id, label, target } = item;
    if (target.kind === "category") {
      const link = resolveCategoryLink({ ...item, target }, addresses.categories);
      return link === undefined ? [] : [{ id, ...link, kind: target.kind }];
    }
    const href = targetHref(target, addresses);
    return href === undefined ? [] : [{ id, label, href, kind: target.kind }];
  });
}

/** The built-in pages at the addresses they were seeded with, as a fresh install has them. */
const SEEDED_BUILT_IN_SLUGS: ReadonlyMap<string, string> = new Map(BUILT_IN_PAGES.map((page) => [page, page]));

/** The default links of one menu on a fresh install (components rendered without the layout's links). */
export function defaultNavigationLinks(
  menu: NavigationMenu,
  links: Pick<NavigationAddresses, "aboutUrl" | "sourceUrl">,
): NavigationLink[] {
  return resolveNavigationLinks(defaultNavigation()[menu], {
    ...links,
    pageSlugs: new Map(),
    builtInPageSlugs: SEEDED_BUILT_IN_SLUGS,
  });
}

/** Links that leave the site's own routes: plain anchors with rel="noopener", as the About link always was. */
export function isOutboundLink(link: NavigationLink): boolean {
  return link.kind === "url" || link.kind === "about-link" || link.kind === "source-link";
}

/** The ids of the pages the menus name, to look their slugs up in one query. */
export function navigationPageIds(navigation: Navigation): string[] {
  const ids = [...navigation.header, ...navigation.footer].flatMap(({ target }) =>
    target.kind === "page" ? [target.id] : [],
  );
  return [...new Set(ids)];
}

export function linksBuiltInPages(navigation: Navigation): boolean {
  return [...navigation.header, ...navigation.footer].some(({ target }) => target.kind === "built-in-page");
}

/** What the owner asked of a menu on /admin/navigation. */
export type NavigationChange =
  | { action: "add"; menu: NavigationMenu; link: Omit<NavigationItem, "id"> }
  | { action: "move"; menu: NavigationMenu; id: string; to: number }
  | { action: "remove"; menu: NavigationMenu; id: string }
  | { action: "rename"; menu: NavigationMenu; id: string; label: string }
  | { action: "reset" };

/**
 * The menus after a change (null: the defaults, as if never edited) and a line saying what
 * changed, for the activity log; or why it was refused.
 */
export type NavigationChangeResult =
  { ok: true; navigation: Navigation | null; summary: string } | { ok: false; message: string };

export const NAVIGATION_SAVE_FAILED_MESSAGE = "The menu could not be saved. Please try again.";

export const LINK_GONE_MESSAGE = "That link is no longer in the menu. The screen now shows the menus as saved.";

/** A short random id for a new link; crypto is global in browsers and Node alike. */
const randomItemId = () => globalThis.crypto.randomUUID().slice(0, 8);

/** The menus after one change, or why it cannot be made. */
export function applyNavigationChange(
  navigation: Navigation,
  change: NavigationChange,
  newItemId: () => string = randomItemId,
): NavigationChangeResult {
  if (change.action === "reset") return { ok: true, navigation: null, summary: "menus reset to the defaults" };
  const items = navigation[change.menu];
  const withMenu = (next: NavigationItem[], done: string): NavigationChangeResult => ({
    ok: true,
    navigation: { ...navigation, [change.menu]: next },
    summary: `${change.menu}: ${done}`,
  });
  if (change.action === "add") {
    if (items.length >= NAVIGATION_LIMITS.items) return { ok: false, message: TOO_MANY_MESSAGE };
    const id = freshNavigationItemId(items, newItemId);
    return withMenu([...items, { id, ...change.link }], `added "${change.link.label}"`);
  }
  const item = items.find((candidate) => candidate.id === change.id);
  if (item === undefined) return { ok: false, message: LINK_GONE_MESSAGE };
  if (change.action === "rename") {
    return withMenu(
      items.map((other) => (other.id === change.id ? { ...other, label: change.label } : other)),
      `renamed "${item.label}" to "${change.label}"`,
    );
  }
  if (change.action === "remove") {
    return withMenu(
      items.filter((other) => other.id !== change.id),
      `removed "${item.label}"`,
    );
  }
  return withMenu(moveNavigationItem(items, change.id, change.to), `moved "${item.label}"`);
}

/**
 * The list with the link `id` at position `to` of the result: Move up is its index less one,
 * Move down its index plus one, a drop the index of the row it was dropped on. Past either
 * end means that end.
 */
export function moveNavigationItem<Item extends { id: string }>(
  items: readonly Item[],
  id: string,
  to: number,
): Item[] {
  const item = items.find((candidate) => candidate.id === id);
  if (item === undefined) return [...items];
  const rest = items.filter((other) => other.id !== id);
  const at = Math.min(Math.max(to, 0), rest.length);
  return [...rest.slice(0, at), item, ...rest.slice(at)];
}

/** An id no link of `items` has, for a link being added. */
export function freshNavigationItemId(items: readonly NavigationItem[], random: () => string): string {
  const taken = new Set(items.map((item) => item.id));
  let id = random();
  while (taken.has(id)) id = random();
  return id;
}

const menuFieldSchema = z.enum(NAVIGATION_MENUS, { error: "Unknown menu" });

/** The kinds the Add link form offers; the built-in pages are offered by id like every page. */
export const ADDABLE_TARGET_KINDS = NAVIGATION_TARGET_KINDS.filter((kind) => kind !== "built-in-page");

/** The Add link schema when the blog's categories are `categories`: a link may name only one of them. */
function addLinkSchemaFor(categories: readonly string[]) {
  return z
    .object({
      menu: menuFieldSchema,
      label: labelSchema,
      kind: z.enum(ADDABLE_TARGET_KINDS, { error: "Please choose what the link points to" }),
      page: z.string(),
      category: z.string(),
      url: z.string(),
    })
    .transform((values, context) => {
      // Only the field the chosen kind needs is judged, and its message goes beside that field.
      const picked = navigationTargetSchema.safeParse({
        kind: values.kind,
        id: values.page,
        category: values.category,
        url: values.url,
      });
      if (!picked.success) {
        for (const issue of picked.error.issues) {
          const field = issue.path[0] === "id" ? "page" : String(issue.path[0] ?? "kind");
          context.addIssue({ code: "custom", message: issue.message, path: [field] });
        }
        return z.NEVER;
      }
      if (picked.data.kind === "category" && !categories.includes(picked.data.category)) {
        context.addIssue({ code: "custom", message: "Please choose a category", path: ["category"] });
        return z.NEVER;
      }
      return { menu: values.menu, link: { label: values.label, target: picked.data } };
    });
}

/** The Add link form of one menu, offering the blog's categories (the writer's, in their order). */
export function addNavigationLinkFormFor(categories: readonly string[]) {
  return defineForm({
    fields: ["menu", "label", "kind", "page", "category", "url"],
    read: (formData: FormData) => ({
      menu: formText(formData, "menu"),
      label: formText(formData, "label"),
      kind: formText(formData, "kind"),
      page: formText(formData, "page"),
      category: formText(formData, "category"),
      url: formText(formData, "url"),
    }),
    schema: addLinkSchemaFor(categories),
  });
}

/** The Add link form on a new blog, whose categories are the spec's six. */
export const addNavigationLinkForm = addNavigationLinkFormFor(CATEGORIES);

const changeSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("move"),
      menu: menuFieldSchema,
      item: z.string().min(1),
      to: z.coerce.number().int().min(-1).max(NAVIGATION_LIMITS.items),
    }),
    z.object({ intent: z.literal("remove"), menu: menuFieldSchema, item: z.string().min(1) }),
    z.object({ intent: z.literal("rename"), menu: menuFieldSchema, item: z.string().min(1), label: labelSchema }),
    z.object({ intent: z.literal("reset") }),
  ],
  { error: "Unknown change" },
);

/** Move, Rename, Remove and Reset: the row buttons (and a drag) post these. */
export const navigationChangeForm = defineForm({
  fields: ["intent", "menu", "item", "to", "label"],
  read: (formData: FormData) => ({
    intent: formText(formData, "intent"),
    menu: formText(formData, "menu"),
    item: formText(formData, "item"),
    to: formText(formData, "to"),
    label: formText(formData, "label"),
  }),
  schema: changeSchema.transform((input): NavigationChange => {
    if (input.intent === "reset") return { action: "reset" };
    if (input.intent === "remove") return { action: "remove", menu: input.menu, id: input.item };
    if (input.intent === "rename") return { action: "rename", menu: input.menu, id: input.item, label: input.label };
    return { action: "move", menu: input.menu, id: input.item, to: input.to };
  }),
});
