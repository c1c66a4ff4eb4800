import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as yauzl from "yauzl";
import { ZipFile } from "yazl";
import { DEFAULT_IMPORT_OPTIONS } from "#domain/portability.ts";
import { createServices } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createPosts, TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Every entry of a zip, by name, as any unzip tool would read it. */
async function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(archive, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStreamPromise(entry).then(async (stream) => {
        files.set(entry.fileName, await collect(stream));
        zip.readEntry();
      }, reject);
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}

describe.each(testDialects())("the export archive on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("holds the JSON export, the images' records and every stored file at its URL path", async () => {
    const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
    const image = await blog.services.media.upload({
      bytes,
      name: "harbour.jpg",
      declaredType: "image/jpeg",
      uploadedBy: "admin-1",
    });
    await createPosts(blog.services, blog.clock, [
      { title: "With a picture", content: `<p><img src="${image.url}"></p>` },
    ]);

    const files = await unzip(await collect(blog.services.portability.exportArchive()));

    let json = "";
    for await (const chunk of blog.services.portability.exportBlog()) json += chunk;
    const document = JSON.parse(files.get("inkwell-export.json")!.toString("utf8")) as { posts: { title: string }[] };
    expect({ ...document, exportedAt: "" }).toEqual({ ...(JSON.parse(json) as object), exportedAt: "" });
    expect(document.posts.map((post) => post.title)).toEqual(["With a picture"]);

    expect(JSON.parse(files.get("media.json")!.toString("utf8"))).toEqual([
      expect.objectContaining({ hash: image.hash, originalName: "harbour.jpg", width: 900, height: 600 }),
    ]);
    const stored = await blog.handle.db
      .selectFrom("media_variants")
      .select(["width", "format", "bytes"])
      .where("hash", "=", image.hash)
      .execute();
    expect(stored.length).toBeGreaterThan(1);
    for (const variant of stored) {
      const name = `media/${image.hash}/${Number(variant.width) === 0 ? "original" : variant.width}.${variant.format}`;
      expect(files.get(name), name).toEqual(Buffer.from(variant.bytes));
    }
    expect(files.size).toBe(2 + stored.length);
  });

  it("is a valid archive with an empty image list when nothing was uploaded", async () => {
    const files = await unzip(await collect(blog.services.portability.exportArchive()));
    expect([...files.keys()]).toEqual(["inkwell-export.json", "media.json"]);
    expect(JSON.parse(files.get("media.json")!.toString("utf8"))).toEqual([]);
  });
});

describe.each(testDialects())("importing the export archive on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("moves posts and images to an empty blog: same files, same links, the images in use; twice creates nothing twice", async () => {
    const bytes = await sharp({ create: { width: 700, height: 500, channels: 3, background: "#97602a" } })
      .png()
      .toBuffer();
    const image = await blog.services.media.upload({
      bytes,
      name: "sunset.png",
      declaredType: "image/png",
      uploadedBy: "admin-1",
    });
    await createPosts(blog.services, blog.clock, [{ title: "Sunset", content: `<p><img src="${image.url}"></p>` }]);
    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-archive-"));
    const file = path.join(directory, "blog.zip");
    const target = await createTestDatabase(dialect);
    try {
      writeFileSync(file, await collect(blog.services.portability.exportArchive()));
      const other = createServices({
        db: target.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      const report = await other.portability.importArchive(file, DEFAULT_IMPORT_OPTIONS);
      expect(report.created.posts).toBe(1);
      expect(report.warnings).toContain("1 images imported with their files");

      const variants = (db: typeof target.db) =>
        db
          .selectFrom("media_variants")
          .select(["width", "format", "bytes"])
          .orderBy("width")
          .orderBy("format")
          .execute();
      const copied = await variants(target.db);
      expect(copied.map((row) => [Number(row.width), row.format, Buffer.from(row.bytes)])).toEqual(
        (await variants(blog.handle.db)).map((row) => [Number(row.width), row.format, Buffer.from(row.bytes)]),
      );
      // Served at the same address as on the old blog.
      const served = await other.media.getFile(image.hash, "original", "png");
      const source = await blog.services.media.getFile(image.hash, "original", "png");
      expect(served && Buffer.from(served.bytes)).toEqual(source && Buffer.from(source.bytes));
      const [post] = (await other.posts.listPublishedPosts()).items;
      expect(post?.title).toBe("Sunset");
      expect(await target.db.selectFrom("media_uses").select(["hash", "post_id"]).execute()).toEqual([
        { hash: image.hash, post_id: post?.id },
      ]);

      const again = await other.portability.importArchive(file, DEFAULT_IMPORT_OPTIONS);
      expect(again.created.posts).toBe(0);
      expect(again.skipped).toContainEqual({ item: "image sunset.png", reason: "this blog has it already" });
      expect(await variants(target.db)).toHaveLength(copied.length);
    } finally {
      await target.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("carries the logo and the site icon: an empty blog shows them after the import; a JSON export alone shows none", async () => {
    const owner = { label: "owner" };
    const image = (background: string) =>
      sharp({ create: { width: 600, height: 300, channels: 4, background } })
        .png()
        .toBuffer();
    await blog.services.siteSettings.saveImage(
      "logo",
      { bytes: await image("#1d6b3a"), declaredType: "image/png" },
      owner,
    );
    await blog.services.siteSettings.saveImage(
      "siteIcon",
      { bytes: await image("#97602a"), declaredType: "image/png" },
      owner,
    );
    const { logo, siteIcon } = await blog.services.siteSettings.current();
    const logoHash = logo.split(":")[0]!;
    const files = await unzip(await collect(blog.services.portability.exportArchive()));
    const names = [...files.keys()].filter((name) => name.startsWith("site-images/")).sort();
    expect(names).toEqual(
      [
        `site-images/${logoHash}/192.png`,
        ...[180, 192, 32, 512].map((size) => `site-images/${siteIcon}/${size}.png`),
      ].sort(),
    );

    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-archive-"));
    const file = path.join(directory, "blog.zip");
    writeFileSync(file, await collect(blog.services.portability.exportArchive()));
    let json = "";
    for await (const chunk of blog.services.portability.exportBlog()) json += chunk;
    const target = await createTestDatabase(dialect);
    const second = await createTestDatabase(dialect);
    try {
      const services = (db: typeof target.db) =>
        createServices({
          db,
          dialect,
          now: blog.clock.now,
          passwordCost: TEST_PASSWORD_COST,
          commentIpSalt: TEST_COMMENT_IP_SALT,
        });
      const other = services(target.db);
      const report = await other.portability.importArchive(file, DEFAULT_IMPORT_OPTIONS);
      expect(report.warnings).toContain("the logo and the site icon imported with their files");
      expect(await other.siteSettings.current()).toMatchObject({ logo, siteIcon });
      const icon = await other.siteSettings.iconFile(32);
      const original = await blog.services.siteSettings.iconFile(32);
      expect(icon && Buffer.from(icon.bytes)).toEqual(original && Buffer.from(original.bytes));
      const logoFile = await other.media.getFile(logoHash, 192, "png");
      expect(logoFile?.bytes.length).toBeGreaterThan(0);

      const fromJson = services(second.db);
      const jsonReport = await fromJson.portability.importBlog(json, DEFAULT_IMPORT_OPTIONS);
      expect(jsonReport.warnings).toEqual(
        expect.arrayContaining([
          "the logo is not on this blog (import the .zip export, which carries it); the site shows none until you upload it",
          "the site icon is not on this blog (import the .zip export, which carries it); the site shows none until you upload it",
        ]),
      );
      expect(await fromJson.siteSettings.current()).toMatchObject({ logo: "", siteIcon: "" });
    } finally {
      await target.close();
      await second.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("refuses an archive whose file inflates past its declared size as damaged, and changes nothing", async () => {
    await createPosts(blog.services, blog.clock, [{ title: "Inflated", content: `<p>${"words ".repeat(20_000)}</p>` }]);
    const archive = await collect(blog.services.portability.exportArchive());
    // Every central directory entry now declares 100 bytes; the export's JSON inflates far past that.
    const central = 0x02014b50;
    for (let offset = archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); offset >= 0;) {
      if (archive.readUInt32LE(offset) === central) archive.writeUInt32LE(100, offset + 24);
      offset = archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), offset + 4);
    }
    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-archive-"));
    const target = await createTestDatabase(dialect);
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      const file = path.join(directory, "inflated.zip");
      writeFileSync(file, archive);
      const refusal = other.portability.importArchive(file, DEFAULT_IMPORT_OPTIONS);
      await expect(refusal).rejects.toThrow(/^The archive is damaged/);
      await expect(refusal).rejects.toMatchObject({ code: "IMPORT_REFUSED" });
      expect(await target.db.selectFrom("posts").select("id").execute()).toEqual([]);
    } finally {
      await target.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("refuses a cut-short archive and one that is not an Inkwell export, and changes nothing", async () => {
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#333333" } })
      .jpeg()
      .toBuffer();
    await blog.services.media.upload({ bytes, name: "grey.jpg", declaredType: "image/jpeg", uploadedBy: "admin-1" });
    await createPosts(blog.services, blog.clock, [{ title: "Grey" }]);
    const archive = await collect(blog.services.portability.exportArchive());
    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-archive-"));
    const target = await createTestDatabase(dialect);
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      const cut = path.join(directory, "cut.zip");
      writeFileSync(cut, archive.subarray(0, Math.floor(archive.length * 0.6)));
      await expect(other.portability.importArchive(cut, DEFAULT_IMPORT_OPTIONS)).rejects.toThrow(/cannot be read/);

      const zip = new ZipFile();
      zip.addBuffer(Buffer.from("{}"), "something-else.json");
      zip.end();
      const foreign = path.join(directory, "foreign.zip");
      writeFileSync(foreign, await collect(zip.outputStream));
      await expect(other.portability.importArchive(foreign, DEFAULT_IMPORT_OPTIONS)).rejects.toThrow(
        "This .zip has no inkwell-export.json: it is not an Inkwell export.",
      );

      expect(await target.db.selectFrom("posts").select("id").execute()).toEqual([]);
      expect(await target.db.selectFrom("media").select("hash").execute()).toEqual([]);
      expect(await target.db.selectFrom("media_variants").select("hash").execute()).toEqual([]);
    } finally {
      await target.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("reads only the icon's and the logo's own files, each bounded by its size: anything else refuses the import", async () => {
    const owner = { label: "owner" };
    const png = (width: number, height: number, background: string) =>
      sharp({ create: { width, height, channels: 4, background } })
        .png()
        .toBuffer();
    await blog.services.siteSettings.saveImage(
      "siteIcon",
      { bytes: await png(600, 300, "#97602a"), declaredType: "image/png" },
      owner,
    );
    await blog.services.siteSettings.saveImage(
      "logo",
      { bytes: await png(600, 300, "#1d6b3a"), declaredType: "image/png" },
      owner,
    );
    const { logo, siteIcon } = await blog.services.siteSettings.current();
    const logoHash = logo.split(":")[0]!;
    const exported = await unzip(await collect(blog.services.portability.exportArchive()));
    const folder = `site-images/${siteIcon}/`;

    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-archive-"));
    const target = await createTestDatabase(dialect);
    let written = 0;
    /** The export with these entries added or replaced, as a .zip on disk. */
    const archiveWith = async (changes: Record<string, Buffer>) => {
      const zip = new ZipFile();
      for (const [name, bytes] of new Map([...exported, ...Object.entries(changes)])) zip.addBuffer(bytes, name);
      zip.end();
      const file = path.join(directory, `blog-${(written += 1)}.zip`);
      writeFileSync(file, await collect(zip.outputStream));
      return file;
    };
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: blog.clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      const refusal = (file: string) => other.portability.importArchive(file, DEFAULT_IMPORT_OPTIONS);
      const onlyIconFiles = `holds only 32.png, 180.png, 192.png, 512.png.`;

      await expect(refusal(await archiveWith({ [`${folder}64.png`]: await png(64, 64, "#97602a") }))).rejects.toThrow(
        `${folder}64.png is not a file of the site icon: ${folder} ${onlyIconFiles}`,
      );
      const many = Object.fromEntries(
        Array.from({ length: 300 }, (_, index) => [`${folder}${1000 + index}.png`, Buffer.from("not read")]),
      );
      await expect(refusal(await archiveWith(many))).rejects.toThrow(/is not a file of the site icon/);
      await expect(
        refusal(await archiveWith({ [`site-images/${logoHash}/480.png`]: await png(480, 96, "#1d6b3a") })),
      ).rejects.toThrow(`site-images/${logoHash}/480.png is not a file of the logo`);
      // Listed as 20 MB where a 512 px icon cannot take 3: refused before it is read.
      await expect(
        refusal(await archiveWith({ [`${folder}512.png`]: Buffer.alloc(20 * 1024 * 1024) })),
      ).rejects.toThrow(`${folder}512.png is larger than a 512x512 PNG can be.`);
      await expect(refusal(await archiveWith({ [`${folder}32.png`]: await png(40, 40, "#97602a") }))).rejects.toThrow(
        `${folder}32.png is not 32x32, the size the site icon has there.`,
      );
      // Each refusal took back what it had stored: the logo, checked first, is not left behind.
      expect(await other.media.getFile(logoHash, Number(logo.split(":")[1]!.split("x")[0]), "png")).toBeUndefined();
      expect(await other.siteSettings.iconFile(512)).toBeUndefined();

      // The export itself still imports, with a folder no setting names left unread.
      const report = await refusal(
        await archiveWith({ [`site-images/${"0".repeat(64)}/512.png`]: await png(512, 512, "#000000") }),
      );
      expect(report.warnings).toContain("the logo and the site icon imported with their files");
      // The checks above read the settings: the import shows once that second is over.
      blog.clock.advance(1000);
      expect(await other.siteSettings.current()).toMatchObject({ logo, siteIcon });
      expect(await other.siteSettings.iconFile(32)).toBeDefined();
      expect(await other.media.getFile("0".repeat(64), 512, "png")).toBeUndefined();
    } finally {
      await target.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
