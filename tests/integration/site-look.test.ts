import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { action as imagesAction } from "../../app/routes/admin/settings-images.tsx";
import { action as settingsAction } from "../../app/routes/admin/settings.tsx";
import { createSiteIconRoutes } from "../../server/media/site-icons-http.ts";
import { appContext } from "../../server/request-context.ts";
import { createServices } from "../../server/composition.ts";
import { TOO_MANY_PIXELS_MESSAGE } from "../../server/media/process.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

/** What the settings form posts without JavaScript: every field, as a browser sends them. */
const FORM = {
  title: "Field Notes",
  description: "",
  aboutUrl: "https://notes.example/about",
  sourceUrl: "https://notes.example/source",
  postsPerPage: "10",
  timeZone: "UTC",
  footerText: "",
  emailFromName: "",
  emailReplyTo: "",
  accentColor: "",
  bodyTypeface: "sans",
};

/** A wide, two-coloured picture, so a centre crop and a resize both show in the result. */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: "#1d6b3a" } })
    .png()
    .toBuffer();

function upload(kind: string, bytes: Buffer, type = "image/png") {
  const body = new FormData();
  body.append("kind", kind);
  body.append("file", new File([new Uint8Array(bytes)], "icon.png", { type }));
  return new Request("http://blog.test/admin/settings/images", { method: "POST", body });
}

describe.each(testDialects())("the site's look, on $dialect", (database) => {
  /** A second app server over the same database, with its own one-second settings cache. */
  const otherServer = () =>
    createServices({
      db: blog.handle.db,
      dialect: database.dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
  const blog = useTestBlog(database);
  /** A request's context as the server builds it: the settings read for this request. */
  const contextFor = async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const site = { ...(await blog.services.siteSettings.current()), siteUrl: "http://blog.test" };
    context.set(appContext, { ...context.get(appContext), site });
    return context;
  };
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function serveIcons(): Promise<string> {
    const app = express().use(createSiteIconRoutes({ services: blog.services }));
    app.use((_req, res) => res.status(404).send("fell through"));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("saves an accent colour and a typeface from the plain form and reads them back", async () => {
    const saved = await call(
      settingsAction,
      postForm("http://blog.test/admin/settings", { ...FORM, accentColor: " #1D6B3A ", bodyTypeface: "serif" }),
      await contextFor(),
    );
    expect(saved).toMatchObject({ status: 200, body: { saved: true } });
    expect(await blog.services.siteSettings.current()).toMatchObject({
      title: "Field Notes",
      accentColor: "#1d6b3a",
      bodyTypeface: "serif",
      logo: "",
      siteIcon: "",
    });
  });

  it("refuses an accent that fails contrast with its reason and ratio, and keeps the old one", async () => {
    const refused = await call(
      settingsAction,
      postForm("http://blog.test/admin/settings", { ...FORM, accentColor: "#ffd400" }),
      await contextFor(),
    );
    expect(refused).toMatchObject({ status: 400, body: { values: { accentColor: "#ffd400" } } });
    const { errors } = refused.body as { errors: Record<string, string> };
    expect(errors.accentColor).toMatch(
      /^This colour is too light to read on white \(1\.\d : 1; it needs 4\.5 : 1\)\. Try a darker shade\.$/,
    );
    const unknown = await call(
      settingsAction,
      postForm("http://blog.test/admin/settings", { ...FORM, bodyTypeface: "comic" }),
      await contextFor(),
    );
    expect(unknown).toMatchObject({ status: 400, body: { errors: { bodyTypeface: expect.any(String) } } });
    expect(await blog.services.siteSettings.current()).toMatchObject({ accentColor: "", bodyTypeface: "sans" });
  });

  it("serves an uploaded icon at the sizes browsers ask for, and falls through without one", async () => {
    const base = await serveIcons();
    expect(await (await fetch(`${base}/apple-touch-icon.png`)).text()).toBe("fell through");
    expect(await (await fetch(`${base}/manifest.webmanifest`)).text()).toBe("fell through");

    const uploaded = await call(imagesAction, upload("siteIcon", await picture(900, 600)), await contextFor());
    expect(uploaded).toMatchObject({ status: 302 });
    expect(uploaded.headers.get("Location")).toBe("/admin/settings");

    for (const [path, size] of [
      ["/favicon-32.png", 32],
      ["/apple-touch-icon.png", 180],
      ["/icon-192.png", 192],
      ["/icon-512.png", 512],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(metadata).toMatchObject({ format: "png", width: size, height: size });
    }
    const manifest = await fetch(`${base}/manifest.webmanifest`);
    expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    expect(await manifest.json()).toMatchObject({
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      ],
    });

    const removed = await call(
      imagesAction,
      postForm("http://blog.test/admin/settings/images", { kind: "siteIcon", intent: "remove" }),
      await contextFor(),
    );
    expect(removed).toMatchObject({ status: 302 });
    expect(await (await fetch(`${base}/favicon-32.png`)).text()).toBe("fell through");
  });

  it("keeps a logo 96 px high, and refuses a file that is not an image", async () => {
    expect(await call(imagesAction, upload("logo", await picture(1200, 300)), await contextFor())).toMatchObject({
      status: 302,
    });
    expect((await blog.services.siteSettings.current()).logo).toMatch(/^[0-9a-f]{64}:384x96$/);

    const refused = await call(
      imagesAction,
      upload("logo", Buffer.from("not an image"), "text/plain"),
      await contextFor(),
    );
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ values: { kind: "logo" }, errors: { file: expect.any(String) } });
  });

  it("keeps the logo and the icon when the settings form is saved", async () => {
    await call(imagesAction, upload("siteIcon", await picture(512, 512)), await contextFor());
    const { siteIcon } = await blog.services.siteSettings.current();
    await call(settingsAction, postForm("http://blog.test/admin/settings", FORM), await contextFor());
    expect((await blog.services.siteSettings.current()).siteIcon).toBe(siteIcon);
    expect(siteIcon).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a logo uploaded after the settings page was read when that page's form is saved", async () => {
    const pageReadBefore = await contextFor();
    await call(imagesAction, upload("logo", await picture(1200, 300)), await contextFor());
    const { logo } = await blog.services.siteSettings.current();
    expect(logo).toMatch(/^[0-9a-f]{64}:384x96$/);
    const saved = await call(settingsAction, postForm("http://blog.test/admin/settings", FORM), pageReadBefore);
    expect(saved).toMatchObject({ status: 200, body: { saved: true } });
    expect(await blog.services.siteSettings.current()).toMatchObject({ title: "Field Notes", logo });
  });

  it("keeps what another server saved a moment before, whichever of the three forms saves next", async () => {
    const other = otherServer();
    const owner = { label: "owner" };
    // This server has read the settings within the last second: its cache is still fresh.
    const before = await blog.services.siteSettings.current();
    await other.siteSettings.saveImage(
      "siteIcon",
      { bytes: await picture(512, 512), declaredType: "image/png" },
      owner,
    );
    const { siteIcon } = await other.siteSettings.current();
    await blog.services.siteSettings.update({ ...before, title: "Field Notes" }, owner);
    expect(await blog.services.siteSettings.current()).toMatchObject({ title: "Field Notes", siteIcon });

    await other.siteSettings.current();
    await blog.services.siteSettings.update({ ...before, title: "Harbour Notes" }, owner);
    await other.siteSettings.saveImage("logo", { bytes: await picture(1200, 300), declaredType: "image/png" }, owner);
    expect(await other.siteSettings.current()).toMatchObject({ title: "Harbour Notes", siteIcon });
    const { logo } = await other.siteSettings.current();

    await blog.services.siteSettings.current();
    await other.siteSettings.update({ ...before, title: "Quay Notes" }, owner);
    await blog.services.siteSettings.removeImage("siteIcon", owner);
    expect(await blog.services.siteSettings.current()).toMatchObject({ title: "Quay Notes", logo, siteIcon: "" });
  });

  it("refuses a logo or icon over the pixel limit with the media library's message", async () => {
    const huge = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: "#1d6b3a" } })
      .png()
      .toBuffer();
    for (const kind of ["logo", "siteIcon"]) {
      const refused = await call(imagesAction, upload(kind, huge), await contextFor());
      expect(refused.status).toBe(413);
      expect(refused.body).toMatchObject({ values: { kind }, errors: { file: TOO_MANY_PIXELS_MESSAGE } });
    }
    expect(await blog.services.siteSettings.current()).toMatchObject({ logo: "", siteIcon: "" });
  });
});
