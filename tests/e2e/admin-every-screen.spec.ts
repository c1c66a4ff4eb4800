import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import routes from "../../app/routes";
import { E2E_ADMIN_URL } from "../../playwright.config";
import { createPost, SAME_ORIGIN, signIn, uniqueSuffix, updatePost, withDatabase } from "./admin-support";

/**
 * Every admin screen at a phone's width and a desktop's, in both themes (issue 35): the list of
 * screens is read from app/routes.ts, so a new one is opened here without a line added.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** docs: WCAG 2.5.5's size, the one the phone layout keeps for every control. */
const TAP_TARGET = 44;
/** axe's rules that read colours: what changes between the light and the dark theme. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * The admin screens' paths as written in routes.ts: every page module (.tsx) under the admin
 * layout. A child of a page (users/invite) is one of its forms: it renders nothing of its own
 * and shows its parent's page, which is opened already.
 */
function adminScreens(entries: readonly RouteConfigEntry[], prefix: string, underAdmin: boolean): string[] {
  return entries.flatMap((entry) => {
    const path = [prefix, entry.path].filter(Boolean).join("/");
    const admin = underAdmin || entry.file === "routes/admin/layout.tsx";
    if (!entry.path && !entry.index) return adminScreens(entry.children ?? [], path, admin);
    return admin && entry.file.endsWith(".tsx") ? [path] : [];
  });
}

function createPage(request: APIRequestContext, title: string, slug: string) {
  return request.post("/admin/pages/new", {
    form: { title, slug, content: "A page of the every-screen test.", format: "markdown", published: "on" },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
}

/**
 * What a screen opened only by a request needs in its address: IndieAuth's consent screen,
 * as a writing app sends the writer to it (tests/e2e/admin-indieauth.spec.ts).
 */
const QUERIES: Record<string, URLSearchParams> = {
  "admin/indieauth": new URLSearchParams({
    response_type: "code",
    client_id: "https://a-writing-app-with-a-long-address.example/",
    redirect_uri: "https://a-writing-app-with-a-long-address.example/callback",
    state: "every-screen",
    code_challenge: createHash("sha256").update("every-screen-verifier").digest("base64url"),
    code_challenge_method: "S256",
    scope: "create media",
    me: E2E_ADMIN_URL,
  }),
};

/** What a writer with a busy blog has: long titles, a scheduled post, comments with a reply, subscribers, views. */
async function fillTheBlog(request: APIRequestContext, visitor: APIRequestContext) {
  const suffix = uniqueSuffix();
  const longTitle = `A remarkably long title about typography, spacing and the grid that never ends ${suffix}`;
  // A pen name as long as the form takes: the list's Author column must wrap it, not widen the table.
  const longAuthor = `A writer with a rather long pen name and a second surname too ${suffix}`;
  const published = await createPost(request, {
    title: longTitle,
    author: longAuthor,
    published: true,
    tags: "typography, layout",
  });
  const scheduled = await createPost(request, { title: `Scheduled for later with a long title too ${suffix}` });
  const publishAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().slice(0, 16);
  await updatePost(request, scheduled.id, {
    title: scheduled.title,
    published: true,
    publishAt,
    publishAtOffset: "0",
  });
  // A second save, so the post has a revision to open.
  await updatePost(request, published.id, {
    title: longTitle,
    author: longAuthor,
    published: true,
    content: "Changed once.",
  });

  const pageSlug = `a-page-address-as-long-as-a-writer-might-make-it-about-the-grid-${suffix}`;
  expect((await createPage(request, `A page with a long title that goes on and on ${suffix}`, pageSlug)).status()).toBe(
    302,
  );

  const now = new Date().toISOString();
  const ids = withDatabase((db) => {
    const comment = (id: string, status: string, parent: string | null, content: string) =>
      db
        .prepare(
          "insert into comments (id, post_id, author, content, created_at, status, parent_id) values (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(id, published.id, "A visitor with a rather long name", content, now, status, parent);
    comment(`e2e-a${suffix}`, "approved", null, "A first comment, approved, that says quite a lot about the post.");
    comment(`e2e-b${suffix}`, "approved", `e2e-a${suffix}`, "A reply to the first comment.");
    comment(`e2e-c${suffix}`, "pending", null, "A comment waiting for the writer.");
    const subscriber = db.prepare(
      "insert into subscribers (id, email, state, source, created_at, confirmed_at) values (?, ?, ?, ?, ?, ?)",
    );
    subscriber.run(
      `e2e-s1${suffix}`,
      `a.reader.with.a.long.address-${suffix}@example.com`,
      "active",
      "admin",
      now,
      now,
    );
    subscriber.run(`e2e-s2${suffix}`, `pending-${suffix}@example.com`, "pending", "form", now, null);
    db.prepare(
      `insert into fediverse_followers (id, actor_url, handle, server, inbox_url, shared_inbox_url,
         follow_activity_id, state, created_at) values (?, ?, ?, ?, ?, null, ?, 'accepted', ?)`,
    ).run(
      `e2e_f${suffix}`,
      `https://remote.invalid/users/f${suffix}`,
      `@follower${suffix}@remote.invalid`,
      "remote.invalid",
      `https://remote.invalid/users/f${suffix}/inbox`,
      `https://remote.invalid/follows/f${suffix}`,
      now,
    );
    const pageRow = db.prepare("select id from pages where slug = ?").get(pageSlug) as { id: string };
    const revision = (table: string, column: string, id: string) =>
      (db.prepare(`select id from ${table} where ${column} = ? order by number limit 1`).get(id) as { id: string }).id;
    return {
      pageId: pageRow.id,
      pageRevision: revision("page_revisions", "page_id", pageRow.id),
      postRevision: revision("post_revisions", "post_id", published.id),
    };
  });

  const app = await request.post("/admin/settings/apps/create", {
    form: { name: `A publishing app with a long name ${suffix}`, scope: "publish" },
    headers: SAME_ORIGIN,
    maxRedirects: 0,
  });
  expect(app.status()).toBeLessThan(400);

  // Views by a reader (the signed-in writer's are not counted), from a search engine and directly.
  for (const referrer of ["https://www.google.com/", "", "https://news.example.org/front"]) {
    const hit = await visitor.post("/hit", {
      data: JSON.stringify({ p: `/blog/${published.slug}`, r: referrer, w: 390 }),
      headers: {
        ...SAME_ORIGIN,
        "Content-Type": "text/plain",
        "X-Forwarded-For": "198.51.100.35",
        "User-Agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      },
    });
    expect(hit.status()).toBe(204);
  }

  return {
    scheduledPost: scheduled.id,
    ":id": { post: published.id, page: ids.pageId },
    ":revisionId": { post: ids.postRevision, page: ids.pageRevision },
  };
}

/** What overflows: the page sideways, or a control or column heading cut by its box or its scrolling ancestor. */
function findOverflow(page: Page, tapTarget: number) {
  return page.evaluate((minimum) => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > viewport) {
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${viewport} px window`);
    }
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
    const visuallyHidden = (element: Element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const frame = parent.getBoundingClientRect();
        if ((frame.width <= 1 || frame.height <= 1) && getComputedStyle(parent).overflow !== "visible") return true;
      }
      return false;
    };
    const controls = document.querySelectorAll<HTMLElement>(
      "button, summary, th, a, input[type=submit], input[type=text], input[type=email], input[type=search], select",
    );
    for (const element of controls) {
      const box = element.getBoundingClientRect();
      // Hidden, folded away in a closed <details>, or read by screen readers only (itself or a clipped ancestor: a stacked list's headings).
      if (box.width <= 1 || box.height <= 1 || visuallyHidden(element)) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden") continue;
      const inline = style.display === "inline";
      // A link in a sentence is text; a link that stands alone (display other than inline) is a control.
      if (element.tagName === "A" && inline) continue;
      // A text field scrolls its own value, as it should; every other control shows all its words.
      if (element.scrollWidth > element.clientWidth + 1 && !["SELECT", "INPUT"].includes(element.tagName)) {
        problems.push(`${describe(element)} is cut: ${element.scrollWidth} px of text in ${element.clientWidth} px`);
      }
      if (box.left < -1 || box.right > viewport + 1) {
        problems.push(
          `${describe(element)} lies outside the window (${Math.round(box.left)}–${Math.round(box.right)})`,
        );
      }
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === "visible") continue;
        const frame = parent.getBoundingClientRect();
        if (box.left < frame.left - 1 || box.right > frame.right + 1) {
          problems.push(`${describe(element)} is cut by its scrolling box (${parent.className.slice(0, 60)})`);
        }
        break;
      }
      if (minimum > 0 && element.tagName !== "TH" && box.height < minimum - 0.5) {
        problems.push(`${describe(element)} is ${Math.round(box.height)} px tall, under ${minimum} px`);
      }
    }
    return problems;
  }, tapTarget);
}

// One test per width and theme, so two workers share the screens; each test seeds its own rows.
test.describe.configure({ mode: "parallel" });

for (const [viewport, scheme] of [
  [PHONE, "dark"],
  [DESKTOP, "light"],
] as const) {
  test(`every admin screen at ${viewport.width} px fits without a cut control and passes axe in the ${scheme} theme and the other's colours`, async ({
    page,
    playwright,
  }) => {
    // Some forty-five screens, each with axe: the room is for a busy machine.
    test.setTimeout(480_000);
    const visitor = await playwright.request.newContext({ baseURL: E2E_ADMIN_URL });
    await signIn(page.request);
    const values = await fillTheBlog(page.request, visitor);
    await visitor.dispose();

    // A dynamic segment is a row of the kind the path names (a post's :id under posts/, a page's under pages/).
    const paths = adminScreens(routes, "", false)
      .map((path) => {
        const kind = path.startsWith("admin/pages/") ? "page" : "post";
        return path
          .replace(/:(id|revisionId)\b/g, (segment) => values[segment as ":id" | ":revisionId"][kind])
          .replace("*", "no-such-screen");
      })
      .map((path) => (QUERIES[path] ? `${path}?${QUERIES[path]}` : path));
    expect(paths, "the screens read from routes.ts").toContain("admin/posts");
    // A delete's question open, in the rows where it was cut: the scheduled post's, and a page's.
    paths.push(`admin/posts?confirm=${values.scheduledPost}`, `admin/pages?confirm=${values[":id"].page}`);
    for (const path of paths) expect(path, "every dynamic segment has a row").not.toMatch(/:/);

    const otherScheme = scheme === "dark" ? "light" : "dark";
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    const failures: string[] = [];
    for (const path of paths) {
      const label = `/${path} at ${viewport.width} px, ${scheme}`;
      const response = await page.goto(`/${path}`);
      expect(response?.status(), label).toBeLessThan(path.endsWith("no-such-screen") ? 500 : 400);
      await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      for (const problem of await findOverflow(page, viewport === PHONE ? TAP_TARGET : 0)) {
        failures.push(`${label}: ${problem}`);
      }
      const results = await new AxeBuilder({ page }).analyze();
      // The other theme changes colours only (the page script applies it as the setting changes),
      // so the rules that read colours are run again in it.
      await page.emulateMedia({ colorScheme: otherScheme });
      await expect(page.locator("html")).toHaveClass(otherScheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const inOtherTheme = await new AxeBuilder({ page }).withRules(COLOUR_RULES).analyze();
      await page.emulateMedia({ colorScheme: scheme });
      for (const [theme, violations] of [
        [scheme, results.violations],
        [otherScheme, inOtherTheme.violations],
      ] as const) {
        for (const violation of violations) {
          failures.push(
            `${label}: axe ${violation.id} in the ${theme} theme at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);

    const sections = page.getByRole("navigation", { name: "Admin" });
    if (viewport === DESKTOP) {
      // The sections are always shown on a desktop.
      await expect(sections.getByRole("button", { name: "Logout" })).toBeVisible();
      return;
    }
    // On a phone they are a Menu that opens without JavaScript and is closed again on the screen it led to.
    const bare = await page
      .context()
      .browser()!
      .newContext({
        baseURL: E2E_ADMIN_URL,
        viewport: PHONE,
        javaScriptEnabled: false,
        storageState: await page.context().storageState(),
      });
    const phone = await bare.newPage();
    await phone.goto("/admin/settings");
    const menu = phone.getByRole("navigation", { name: "Admin" });
    await expect(menu).toBeHidden();
    await phone.locator("summary", { hasText: "Menu" }).click();
    await menu.getByRole("link", { name: "Comments" }).click();
    await expect(phone).toHaveURL(/\/admin\/comments(\?|$)/);
    await expect(menu).toBeHidden();
    await bare.close();
  });
}
