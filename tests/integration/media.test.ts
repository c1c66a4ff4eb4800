import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MediaInUseError } from "#domain/errors.ts";
import type { UploadedMedia } from "#domain/media.ts";
import { answerImageUpload } from "../../app/lib/image-upload.server.ts";
import { sendSecurityHeaders } from "../../server/kernel/http-security-headers.ts";
import { createSiteIconRoutes } from "../../server/media/site-icons-http.ts";
import { createMediaFileRoutes } from "../../server/media/http.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, routeArgs, TEST_ADMIN } from "../support/route-context.ts";
import { buildPostInput } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";

const DAY = 24 * 60 * 60 * 1000;

async function photo(width: number, height: number, colour = "#2a6f97") {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

describe.each(testDialects())("media on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const upload = async (bytes: Buffer, name = "harbour.jpg") =>
    blog.services.media.upload({ bytes, name, declaredType: "image/jpeg", uploadedBy: "admin-1" });

  it("stores an upload once however often it comes, with every variant", async () => {
    const bytes = await photo(1200, 800);
    const first = await upload(bytes);
    const second = await upload(bytes, "copy-of-harbour.jpg");
    expect(second).toEqual(first);
    expect(first).toMatchObject({ width: 1200, height: 800, format: "jpeg", widths: [480, 960, 1200] });
    expect(first.url).toBe(`/media/${first.hash}/1200.jpeg`);

    const library = await blog.services.media.listLibrary(1);
    expect(library.total).toBe(1);
    expect(library.items[0]).toMatchObject({ originalName: "harbour.jpg", bytes: bytes.byteLength, posts: [] });

    for (const width of first.widths) {
      for (const format of ["avif", "webp", "jpeg"] as const) {
        const file = await blog.services.media.getFile(first.hash, width, format);
        const metadata = await sharp(file!.bytes).metadata();
        expect([metadata.width, metadata.format]).toEqual([width, format === "avif" ? "heif" : format]);
      }
    }
    const original = await blog.services.media.getFile(first.hash, "original", "jpeg");
    expect((await sharp(original!.bytes).metadata()).width).toBe(1200);
    expect(await blog.services.media.getFile(first.hash, 1600, "jpeg")).toBeUndefined();
  });

  it("refuses to delete an image while a post shows it, naming the post, and deletes it once none does", async () => {
    const image = await upload(await photo(600, 400));
    const post = await blog.services.posts.createPost(
      buildPostInput({ title: "Boats at dawn", content: `<p>Look:</p><img src="${image.url}" alt="Boats">` }),
    );
    expect((await blog.services.media.listLibrary(1)).items[0]!.posts).toEqual([
      { id: post.id, title: "Boats at dawn" },
    ]);

    const refusal = await blog.services.media.deleteMedia(image.hash).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MediaInUseError);
    expect((refusal as MediaInUseError).posts).toEqual([{ id: post.id, title: "Boats at dawn" }]);
    expect(await blog.services.media.getFile(image.hash, 600, "webp")).toBeDefined();

    await blog.services.posts.updatePost(post.id, buildPostInput({ content: "<p>No pictures now.</p>" }));
    await blog.services.media.deleteMedia(image.hash);
    expect(await blog.services.media.getFile(image.hash, 600, "webp")).toBeUndefined();
    expect((await blog.services.media.listLibrary(1)).total).toBe(0);
  });

  it("counts a cover as a use too", async () => {
    const image = await upload(await photo(600, 400));
    await blog.services.posts.createPost(buildPostInput({ coverImage: image.url }));
    await expect(blog.services.media.deleteMedia(image.hash)).rejects.toBeInstanceOf(MediaInUseError);
  });

  it("prunes only images no post has used for 30 days", async () => {
    const used = await upload(await photo(300, 200, "#111111"));
    const dropped = await upload(await photo(300, 200, "#222222"));
    const neverUsed = await upload(await photo(300, 200, "#333333"));
    const post = await blog.services.posts.createPost(
      buildPostInput({ content: `<img src="${used.url}" alt=""><img src="${dropped.url}" alt="">` }),
    );
    blog.clock.advance(20 * DAY);
    await blog.services.posts.updatePost(post.id, buildPostInput({ content: `<img src="${used.url}" alt="">` }));

    blog.clock.advance(11 * DAY);
    expect((await blog.services.media.listPrunable()).map((image) => image.hash)).toEqual([neverUsed.hash]);
    blog.clock.advance(20 * DAY);
    expect(await blog.services.media.prune()).toBe(2);
    const left = await blog.services.media.listLibrary(1);
    expect(left.items.map((item) => item.hash)).toEqual([used.hash]);
    expect(await blog.services.media.getFile(dropped.hash, 300, "avif")).toBeUndefined();
  });

  it("deleting a post starts its images' 30 days", async () => {
    const image = await upload(await photo(300, 200));
    const post = await blog.services.posts.createPost(buildPostInput({ coverImage: image.url }));
    blog.clock.advance(40 * DAY);
    expect(await blog.services.media.listPrunable()).toEqual([]);
    await blog.services.posts.deletePost(post.id);
    blog.clock.advance(29 * DAY);
    expect(await blog.services.media.listPrunable()).toEqual([]);
    blog.clock.advance(2 * DAY);
    expect((await blog.services.media.listPrunable()).map((media) => media.hash)).toEqual([image.hash]);
  });

  it("shows a body image to readers as a picture with AVIF, WebP, every width and its size", async () => {
    const image = await upload(await photo(1000, 500));
    const post = await blog.services.posts.createPost(
      buildPostInput({ content: `<p>Intro</p><p><img src="${image.url}" alt="A &quot;harbour&quot;"></p>` }),
    );
    const { post: shown } = await blog.services.posts.getPublicPost(post.id);
    expect(shown.contentHtml).toContain(
      `<source type="image/avif" srcset="/media/${image.hash}/480.avif 480w, /media/${image.hash}/960.avif 960w, /media/${image.hash}/1000.avif 1000w"`,
    );
    expect(shown.contentHtml).toContain(`<source type="image/webp" srcset="/media/${image.hash}/480.webp 480w`);
    expect(shown.contentHtml).toMatch(
      /<img src="\/media\/[0-9a-f]{64}\/1000\.jpeg" srcset="[^"]+" sizes="[^"]+" width="1000" height="500" alt="A &quot;harbour&quot;" loading="lazy"/,
    );
  });

  describe("over HTTP", () => {
    let server: Server;
    let base: string;

    beforeEach(async () => {
      // In server/http.ts's order: every response's headers, the images, then the pages.
      const app = express();
      app.use(sendSecurityHeaders({ siteUrl: "https://blog.example", isDev: false }));
      app.use(createMediaFileRoutes({ services: blog.services }));
      app.use(createSiteIconRoutes({ services: blog.services }));
      app.use((_req, res) => res.type("text/html").send("<p>a page</p>"));
      server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    /** The upload as the editor's script posts it, answered by the admin area's upload middleware. */
    const send = async (file: Blob, name: string, signedIn = false) => {
      const body = new FormData();
      body.append("file", file, name);
      const { context } = createRouteTestContext(blog.services, signedIn ? TEST_ADMIN : null);
      const request = new Request("http://blog.test/admin/media", { method: "POST", body });
      const notAnUpload = () => Promise.resolve(new Response("the page's own answer", { status: 500 }));
      return (await answerImageUpload(routeArgs(request, context), notAnUpload)) as Response;
    };

    it("serves each variant immutably, with an ETag and byte ranges", async () => {
      const image = await upload(await photo(800, 400));
      const url = `${base}/media/${image.hash}/480.webp`;
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-type")).toBe("image/webp");
      expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = new Uint8Array(await whole.arrayBuffer());
      expect((await sharp(bytes).metadata()).width).toBe(480);

      const etag = whole.headers.get("etag")!;
      expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);

      const part = await fetch(url, { headers: { range: "bytes=0-9" } });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 0-9/${bytes.byteLength}`);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(0, 10));

      const beyond = await fetch(url, { headers: { range: `bytes=${bytes.byteLength + 10}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get("content-range")).toBe(`bytes */${bytes.byteLength}`);
    });

    it("lets another origin show the images (an email, a reader), while pages stay same-origin", async () => {
      const image = await upload(await photo(800, 400));
      await blog.services.siteSettings.saveImage(
        "siteIcon",
        { bytes: await photo(512, 512), declaredType: "image/jpeg" },
        { label: "owner" },
      );
      const policy = async (path: string) =>
        (await fetch(`${base}${path}`)).headers.get("cross-origin-resource-policy");
      expect(await policy(`/media/${image.hash}/480.webp`)).toBe("cross-origin");
      expect(await policy(`/media/${image.hash}/800.jpeg`)).toBe("cross-origin");
      expect(await policy("/apple-touch-icon.png")).toBe("cross-origin");
      expect(await policy("/")).toBe("same-origin");
      expect(await policy("/admin")).toBe("same-origin");
      expect(await policy(`/media/${"0".repeat(64)}/480.webp`)).toBe("same-origin");
    });

    it("answers 404 for missing and malformed media, never 500", async () => {
      const image = await upload(await photo(800, 400));
      for (const path of [
        `/media/${image.hash}/1600.webp`,
        `/media/${image.hash}/480.svg`,
        `/media/${"0".repeat(64)}/480.webp`,
        `/media/${image.hash}/480.webp/extra`,
        "/media/not-a-hash/480.webp",
        "/media/%ZZ",
        "/media/",
      ]) {
        expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 404]);
      }
    });

    it("takes an upload from a signed-in admin and refuses one without a session", async () => {
      const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#abcdef" } })
        .png()
        .toBuffer();
      const forged = await send(new Blob([png], { type: "image/png" }), "forged.png");
      expect(forged.status).toBe(401);
      expect(await forged.json()).toEqual({ error: "Sign in to upload images." });
      expect((await blog.services.media.listLibrary(1)).total).toBe(0);

      const accepted = await send(new Blob([png], { type: "image/png" }), "dot.png", true);
      expect(accepted.status).toBe(201);
      const { media } = (await accepted.json()) as { media: UploadedMedia };
      expect(media).toMatchObject({ width: 64, height: 32, format: "png", url: `/media/${media.hash}/64.png` });
      expect((await fetch(`${base}${media.url}`)).status).toBe(200);
    });

    it("refuses an SVG and a file over 15 MB with their reasons", async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>';
      const refusedSvg = await send(new Blob([svg], { type: "image/svg+xml" }), "logo.svg", true);
      expect(refusedSvg.status).toBe(415);
      expect(await refusedSvg.json()).toEqual({ error: "Only JPEG, PNG, WebP, AVIF and GIF images can be uploaded." });

      const huge = new Blob([await photo(16, 16), new Uint8Array(15 * 1024 * 1024)], { type: "image/jpeg" });
      const refusedHuge = await send(huge, "huge.jpg", true);
      expect(refusedHuge.status).toBe(413);
      expect(await refusedHuge.json()).toEqual({ error: "Images may be at most 15 MB." });
      expect((await blog.services.media.listLibrary(1)).total).toBe(0);
    });
  });
});
