import { describe, expect, it } from "vitest";
import { validateForm } from "./forms.ts";
import {
  addNavigationLinkForm,
  applyNavigationChange,
  defaultNavigation,
  defaultNavigationLinks,
  LINK_GONE_MESSAGE,
  type Navigation,
  navigationChangeForm,
  navigationSchema,
  resolveNavigationLinks,
} from "./navigation.ts";

const ADD = { menu: "header", label: "Docs", kind: "url", page: "", category: "", url: "https://docs.example/" };
const ids = (navigation: Navigation | null, menu: "header" | "footer") =>
  (navigation ?? defaultNavigation())[menu].map((item) => item.id);

function applied(navigation: Navigation, change: Parameters<typeof applyNavigationChange>[1]) {
  let next = 0;
  const outcome = applyNavigationChange(navigation, change, () => `new-${++next}`);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}

describe("the menus' schema", () => {
  it("holds the defaults", () => {
    expect(navigationSchema.safeParse(defaultNavigation()).success).toBe(true);
  });

  it("refuses a menu of more than twelve links and two links with one id", () => {
    const link = { id: "a", label: "A", target: { kind: "home" } };
    const many = Array.from({ length: 13 }, (_, index) => ({ ...link, id: `l${index}` }));
    expect(navigationSchema.safeParse({ header: many, footer: [] }).success).toBe(false);
    expect(navigationSchema.safeParse({ header: [link, link], footer: [] }).success).toBe(false);
  });

  it("takes only http and https addresses", () => {
    const menu = (url: string) => ({ header: [{ id: "x", label: "X", target: { kind: "url", url } }], footer: [] });
    expect(navigationSchema.safeParse(menu("https://example.com/a")).success).toBe(true);
    expect(navigationSchema.safeParse(menu("javascript:alert(1)")).success).toBe(false);
    expect(navigationSchema.safeParse(menu("data:text/html,hi")).success).toBe(false);
  });
});

describe("the default links", () => {
  it("are the header and footer the site always had", () => {
    const links = { aboutUrl: "https://example.com/about", sourceUrl: "https://example.com/src" };
    expect(defaultNavigationLinks("header", links).map(({ label, href }) => [label, href])).toEqual([
      ["Home", "/"],
      ["Categories", "/categories"],
      ["About", "https://example.com/about"],
    ]);
    expect(defaultNavigationLinks("footer", links).map(({ label, href }) => [label, href])).toEqual([
      ["Development", "/category/development"],
      ["Technology", "/category/technology"],
      ["Design", "/category/design"],
      ["Business", "/category/business"],
      ["About", "/about"],
      ["Contact", "/about#contact"],
      ["Privacy", "/privacy"],
      ["Terms", "/terms"],
      ["Source code", "https://example.com/src"],
    ]);
  });

  it("follow a page's current slug and leave out one that is not public", () => {
    const navigation: Navigation = {
      header: [
        { id: "a", label: "Team", target: { kind: "page", id: "page-1" } },
        { id: "b", label: "Draft", target: { kind: "page", id: "page-2" } },
      ],
      footer: [],
    };
    const links = resolveNavigationLinks(navigation.header, {
      aboutUrl: "",
      sourceUrl: "",
      pageSlugs: new Map([["page-1", "our-team"]]),
      builtInPageSlugs: new Map(),
    });
    expect(links.map(({ label, href }) => [label, href])).toEqual([["Team", "/our-team"]]);
  });
});

describe("changing a menu", () => {
  it("adds a link at the end with an id of its own", () => {
    const outcome = applied(defaultNavigation(), {
      action: "add",
      menu: "header",
      link: { label: "Blog", target: { kind: "blog" } },
    });
    expect(ids(outcome.navigation, "header")).toEqual(["home", "categories", "about", "new-1"]);
    expect(outcome.summary).toBe('header: added "Blog"');
    expect(ids(outcome.navigation, "footer")).toEqual(ids(defaultNavigation(), "footer"));
  });

  it("refuses a thirteenth link", () => {
    let navigation = defaultNavigation();
    for (let count = navigation.footer.length; count < 12; count += 1) {
      navigation = applied(navigation, {
        action: "add",
        menu: "footer",
        link: { label: "x", target: { kind: "home" } },
      }).navigation!;
    }
    const outcome = applyNavigationChange(navigation, {
      action: "add",
      menu: "footer",
      link: { label: "y", target: { kind: "home" } },
    });
    expect(outcome).toEqual({ ok: false, message: "A menu holds at most 12 links. Remove one first." });
  });

  it("moves a link up, down, to either end, and past the end stays at the end", () => {
    const start = defaultNavigation();
    const moved = (id: string, to: number) =>
      ids(applied(start, { action: "move", menu: "header", id, to }).navigation, "header");
    expect(moved("about", 1)).toEqual(["home", "about", "categories"]);
    expect(moved("home", 1)).toEqual(["categories", "home", "about"]);
    expect(moved("about", 0)).toEqual(["about", "home", "categories"]);
    expect(moved("home", 99)).toEqual(["categories", "about", "home"]);
    expect(moved("home", -1)).toEqual(["home", "categories", "about"]);
  });

  it("renames a link in its place", () => {
    const outcome = applied(defaultNavigation(), { action: "rename", menu: "header", id: "home", label: "Start" });
    expect(outcome.navigation!.header.map((item) => item.label)).toEqual(["Start", "Categories", "About"]);
    expect(outcome.navigation!.header[0]!.target).toEqual({ kind: "home" });
    expect(outcome.summary).toBe('header: renamed "Home" to "Start"');
  });

  it("removes a link, refuses one already gone, and resets to the defaults", () => {
    const removed = applied(defaultNavigation(), { action: "remove", menu: "footer", id: "terms" });
    expect(ids(removed.navigation, "footer")).not.toContain("terms");
    expect(applyNavigationChange(removed.navigation!, { action: "remove", menu: "footer", id: "terms" })).toEqual({
      ok: false,
      message: LINK_GONE_MESSAGE,
    });
    expect(applied(removed.navigation!, { action: "reset" }).navigation).toBeNull();
  });
});

describe("the forms", () => {
  it("reads an Add link form into a link, judging only the field its kind needs", () => {
    expect(validateForm(addNavigationLinkForm, ADD)).toEqual({
      success: true,
      data: { menu: "header", link: { label: "Docs", target: { kind: "url", url: "https://docs.example/" } } },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, kind: "category", category: "Design" })).toMatchObject({
      success: true,
      data: { link: { target: { kind: "category", category: "Design" } } },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, kind: "blog", url: "not checked" })).toMatchObject({
      success: true,
      data: { link: { target: { kind: "blog" } } },
    });
  });

  it("puts each refusal beside its field", () => {
    expect(validateForm(addNavigationLinkForm, { ...ADD, url: "javascript:alert(1)" })).toEqual({
      success: false,
      errors: { url: "The address must start with http:// or https://" },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, kind: "page" })).toEqual({
      success: false,
      errors: { page: "Please choose a page" },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, kind: "category", category: "Cooking" })).toEqual({
      success: false,
      errors: { category: "Please choose a category" },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, label: " ".repeat(3) })).toMatchObject({
      success: false,
      errors: { label: "Please enter the link's label" },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, label: "x".repeat(41) })).toMatchObject({
      success: false,
      errors: { label: "The label must be at most 40 characters" },
    });
    expect(validateForm(addNavigationLinkForm, { ...ADD, kind: "built-in-page" })).toMatchObject({
      success: false,
      errors: { kind: "Please choose what the link points to" },
    });
  });

  it("reads the row buttons' posts", () => {
    const form = (values: Record<string, string>) =>
      validateForm(navigationChangeForm, { intent: "", menu: "", item: "", to: "", label: "", ...values });
    expect(form({ intent: "move", menu: "footer", item: "terms", to: "2" })).toEqual({
      success: true,
      data: { action: "move", menu: "footer", id: "terms", to: 2 },
    });
    expect(form({ intent: "remove", menu: "header", item: "home" })).toEqual({
      success: true,
      data: { action: "remove", menu: "header", id: "home" },
    });
    expect(form({ intent: "rename", menu: "header", item: "home", label: " Start " })).toEqual({
      success: true,
      data: { action: "rename", menu: "header", id: "home", label: "Start" },
    });
    expect(form({ intent: "rename", menu: "header", item: "home", label: "" })).toEqual({
      success: false,
      errors: { label: "Please enter the link's label" },
    });
    expect(form({ intent: "reset" })).toEqual({ success: true, data: { action: "reset" } });
    expect(form({ intent: "move", menu: "sidebar", item: "home", to: "1" }).success).toBe(false);
    expect(form({ intent: "drop" }).success).toBe(false);
  });
});
