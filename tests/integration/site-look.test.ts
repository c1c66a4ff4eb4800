import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { action as imagesAction } from "../../app/routes/admin/settings-images.tsx";
import { action as settingsAction } from "../../app/routes/admin/settings.tsx";
import { createSiteIconRoutes } from "../../server/http-site-icons.ts";
import { appContext } from "../../server/request-context.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

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
    expect(errors.accentColor).toMatch(/^This accent colour is too light for links on the light background: 1\.\d\d:1/);
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
});
