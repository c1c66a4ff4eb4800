import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { action as importJsonAction } from "../../app/routes/resources/import.ts";
import { action as importPageAction } from "../../app/routes/admin/tools-import.tsx";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

const ghostExport = readFileSync(new URL("../fixtures/ghost-export.json", import.meta.url));

/** A multipart request as a browser sends the Tools page's form. */
function uploadRequest(path: string, file: { name: string; content: Buffer | string } | undefined, fields = {}) {
  const body = new FormData();
  if (file)
    body.append(
      "file",
      new File([typeof file.content === "string" ? file.content : new Uint8Array(file.content)], file.name),
    );
  else body.append("file", new File([], ""));
  for (const [name, value] of Object.entries({
    categoryMap: "",
    defaultCategory: "Technology",
    pages: "skip",
    ...fields,
  }))
    body.append(name, String(value));
  return new Request(`http://blog.test${path}`, { method: "POST", body });
}

describe.each(testDialects())("the admin import upload on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const postCount = async () =>
    Number(
      (
        await blog.handle.db
          .selectFrom("posts")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("imports a Ghost export and answers with the report; the same file again creates nothing", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const request = uploadRequest(
      "/admin/tools/import",
      { name: "ghost.json", content: ghostExport },
      {
        categoryMap: JSON.stringify({ woodworking: "Tutorials" }),
      },
    );
    const first = await settle(() => importPageAction(routeArgs(request, context)));
    expect(first.status).toBe(200);
    const report = first.body as { report: { format: string; created: { posts: number } }; lines: string[] };
    expect(report.report.format).toBe("ghost");
    expect(report.report.created.posts).toBeGreaterThan(0);
    expect(report.lines[0]).toMatch(/^Imported from a Ghost export: \d+ posts/);
    const posts = await postCount();
    expect(posts).toBe(report.report.created.posts);

    const again = await importJsonAction(
      routeArgs(uploadRequest("/admin/tools/import.json", { name: "ghost.json", content: ghostExport }), context),
    );
    expect(again.status).toBe(200);
    const body = (await again.json()) as { report: { created: { posts: number }; skipped: { reason: string }[] } };
    expect(body.report.created.posts).toBe(0);
    expect(body.report.skipped.some((skip) => skip.reason === "imported before")).toBe(true);
    expect(await postCount()).toBe(posts);
  });

  it("files posts as the category map's rows say, one row per name found in the file", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const request = uploadRequest("/admin/tools/import", {
      name: "wordpress.xml",
      content: readFileSync(new URL("../fixtures/wordpress-export.xml", import.meta.url)),
    });
    const body = await request.formData();
    for (const [from, to] of [
      ["Woodworking", "Tutorials"],
      ["Hand tools", ""],
    ]) {
      body.append("mapFrom", from!);
      body.append("mapTo", to!);
    }
    const outcome = await settle(() =>
      importPageAction(routeArgs(new Request(request.url, { method: "POST", body }), context)),
    );
    expect(outcome.status).toBe(200);
    const categories = await blog.handle.db.selectFrom("posts").select("category").execute();
    expect(categories.map((row) => row.category)).toContain("Tutorials");
    expect(categories.map((row) => row.category)).not.toContain("Woodworking");
  });

  it("refuses a bad file with a clear message and changes nothing", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const truncated = ghostExport.subarray(0, Math.floor(ghostExport.length / 2));
    const response = await importJsonAction(
      routeArgs(uploadRequest("/admin/tools/import.json", { name: "ghost.json", content: truncated }), context),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { formError: string; values: { defaultCategory: string } };
    expect(body.formError).toMatch(/^Nothing was imported: The file is not complete JSON/);
    expect(body.values.defaultCategory).toBe("Technology");

    const notAnExport = await settle(() =>
      importPageAction(routeArgs(uploadRequest("/admin/tools/import", { name: "a.txt", content: "hello" }), context)),
    );
    expect(notAnExport.status).toBe(400);
    expect((notAnExport.body as { formError: string }).formError).toMatch(/neither JSON nor XML/);
    expect(await postCount()).toBe(0);
  });

  it("refuses a WordPress file that declares entities with a 400, never reading the file it names", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const wordpress = readFileSync(new URL("../fixtures/wordpress-export.xml", import.meta.url), "utf8")
      .replace("<rss", '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss')
      .replace("<wp:post_id>42</wp:post_id>", "<wp:post_id>42</wp:post_id><wp:post_password>&xxe;</wp:post_password>")
      .replace("Start with 400 grit", "&xxe; Start with 400 grit");
    const response = await importJsonAction(
      routeArgs(uploadRequest("/admin/tools/import.json", { name: "wordpress.xml", content: wordpress }), context),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { formError: string };
    expect(body.formError).toMatch(/^Nothing was imported: This XML file declares entities/);
    expect(body.formError).not.toContain("root:");
    expect(await postCount()).toBe(0);
  });

  it("names the field at fault: no file chosen, a category map that is not JSON", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const noFile = await settle(() =>
      importPageAction(routeArgs(uploadRequest("/admin/tools/import", undefined), context)),
    );
    expect(noFile.status).toBe(400);
    expect((noFile.body as { errors: Record<string, string> }).errors).toEqual({
      file: "Choose an export file to import",
    });

    const badMap = await settle(() =>
      importPageAction(
        routeArgs(
          uploadRequest(
            "/admin/tools/import",
            { name: "ghost.json", content: ghostExport },
            { categoryMap: '{"news": "Cooking"}' },
          ),
          context,
        ),
      ),
    );
    expect(badMap.status).toBe(400);
    expect((badMap.body as { errors: Record<string, string> }).errors.categoryMap).toMatch(
      /^In the category map, "news" must be one of/,
    );
    expect(await postCount()).toBe(0);
  });

  it("imports Ghost pages as pages when the form asks for pages, and names an unknown choice", async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const unknown = await settle(() =>
      importPageAction(
        routeArgs(
          uploadRequest("/admin/tools/import", { name: "ghost.json", content: ghostExport }, { pages: "everything" }),
          context,
        ),
      ),
    );
    expect(unknown.status).toBe(400);
    expect((unknown.body as { errors: Record<string, string> }).errors).toEqual({
      pages: "Choose what to do with pages",
    });

    const response = await importJsonAction(
      routeArgs(
        uploadRequest("/admin/tools/import.json", { name: "ghost.json", content: ghostExport }, { pages: "pages" }),
        context,
      ),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { report: { created: { pages: number } }; lines: string[] };
    expect(body.report.created.pages).toBe(1);
    expect(body.lines[0]).toMatch(/^Imported from a Ghost export: 3 posts, 0 comments, 1 pages, 0 settings created/);
    expect((await blog.services.pages.getPublicPage("about-2")).title).toBe("About me");
  });

  it("is the owner's alone", async () => {
    const { context } = createRouteTestContext(blog.services, { ...TEST_ADMIN, role: "editor" });
    const refused = await settle(() =>
      importPageAction(
        routeArgs(uploadRequest("/admin/tools/import", { name: "ghost.json", content: ghostExport }), context),
      ),
    );
    expect(refused.status).toBe(403);
    expect(await postCount()).toBe(0);
  });
});
