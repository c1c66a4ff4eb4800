// `npm run blog -- <command>`: administration from the shell, over the same services the site uses.
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { adminPasswordSchema } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import {
  categoryMapSchema,
  categorySchema,
  DEFAULT_IMPORT_OPTIONS,
  describeImportReport,
  IMPORT_MAX_BYTES,
  type ImportOptions,
  PAGE_OPTIONS,
  refuseUnknownImportCategories,
} from "#domain/portability.ts";
import { parseConfig, resolveCommentIpSalt, resolveSessionSecret } from "../server/kernel/config.ts";
import { appKeySchema } from "#domain/apps.ts";
import { openDatabase } from "../server/kernel/db/connect.ts";
import { migrateToLatest } from "../server/kernel/db/migrate.ts";
import { RestoreError, restoreSqlite } from "../server/kernel/db/restore.ts";
import { seedDemoContent } from "../server/demo/index.ts";
import { createServices } from "../server/composition.ts";
import { generateBenchData } from "../bench/data.ts";
import { isZip, refuseTooLarge } from "../server/portability/index.ts";
import { readSecret } from "./read-secret.ts";
import { canAsk, confirm, megabytes, step } from "./terminal.ts";

const USAGE = `Usage: npm run blog -- <command>

Commands:
  migrate                          apply pending database migrations
  seed-demo                        load the demo posts (only into a blog with no posts)
  create-admin --email <address>   create an admin; the password is asked for, or read from ADMIN_PASSWORD
  reset-password --email <address> set a new password (signs that admin out everywhere)
  reset-2fa --email <address>      turn off two-factor sign-in for a locked-out account
  backup <file>                    copy the SQLite database to <file> while the blog runs
  media unused                     list uploaded images no post has used for 30 days
  media prune                      delete those images
  bench-data --posts <N>           fill an empty blog with N synthetic published posts (benchmarks)
  restore <backup>                 replace the SQLite database with <backup> (the blog must be stopped)
  export <file>                    write every post, page, comment, setting and user (no passwords) as JSON;
                                   a <file> ending in .zip also holds every uploaded image
  apps create --name <name> --scope drafts|publish [--email <address>]
                                   a key for a writing app or a headless site, acting as the owner
                                   (or the account with --email); prints its Admin API key, Content
                                   API key and token once, one per line
  apps list                        the live app keys, their scope and last use
  apps revoke <name>               revoke an app key: refused from its next request on
  import <file>                    read an Inkwell export (.json, or .zip with images), a Ghost (JSON)
                                   or a WordPress (WXR) export
      --category-map <map.json>    {"their category or tag": "one of ours"}
      --default-category <name>    for posts nothing maps (default Development)
      --pages pages|posts|skip     WordPress and Ghost pages: imported as pages (default), as posts,
                                   or left out

Options:
  --yes, -y                        create the database when DATABASE_URL names none yet, without asking

The database is DATABASE_URL (default file:./data/blog.sqlite). A command that would create it asks
first at a terminal; one that needs an existing blog (backup, export, media, apps, reset-…) refuses.`;

const emailSchema = z.email();

/**
 * Commands that act on a blog that already exists. Pointed at a SQLite file that does not exist
 * (DATABASE_URL not set as the server has it, say), they would otherwise back up, export or change
 * a new empty blog and report success; the commands that build a blog (migrate, create-admin,
 * seed-demo, import, bench-data) ask first at a terminal, and elsewhere (scripts, set-ups) create
 * it and say so.
 */
const COMMANDS_ON_AN_EXISTING_BLOG = new Set(["backup", "export", "media", "apps", "reset-password", "reset-2fa"]);
const COMMANDS_THAT_BUILD_A_BLOG = new Set(["migrate", "create-admin", "seed-demo", "import", "bench-data"]);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function askPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  const password = fromEnv ?? (await readSecret("Password: "));
  if (!fromEnv && process.stdin.isTTY) {
    const again = await readSecret("Repeat password: ");
    if (again !== password) fail("The passwords do not match.");
  }
  const parsed = adminPasswordSchema.safeParse(password);
  if (!parsed.success) fail(parsed.error.issues[0]?.message ?? "Invalid password");
  return parsed.data;
}

function isZipFile(file: string): boolean {
  const head = Buffer.alloc(4);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return isZip(head);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      scope: { type: "string" },
      posts: { type: "string" },
      "category-map": { type: "string" },
      "default-category": { type: "string" },
      pages: { type: "string" },
      yes: { type: "boolean", short: "y" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return;
  }

  // ADMIN_PASSWORD is this command's password input here, not the start-up admin pair.
  const config = parseConfig({ ...process.env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  if (command === "restore") {
    // Before the database is opened: this command replaces the file, so it must not hold it.
    const backup = rest[0] ?? fail("restore needs a backup file: npm run blog -- restore backups/blog.sqlite");
    if (config.database.dialect !== "sqlite") {
      fail("PostgreSQL is restored with its own tools: pg_restore --clean --dbname=<database> blog.dump");
    }
    try {
      const { previous } = restoreSqlite(path.resolve(backup), config.database.filename, (doing) =>
        console.log(`${doing}…`),
      );
      console.log(
        `Restored ${config.database.filename} from ${path.resolve(backup)}` +
          (previous ? `; the previous database is kept as ${previous}` : ""),
      );
    } catch (error) {
      if (error instanceof RestoreError) fail(`Nothing was restored: ${error.message}`);
      throw error;
    }
    return;
  }
  // Before any database is opened or offered: a typo or a missing file creates nothing.
  if (!COMMANDS_ON_AN_EXISTING_BLOG.has(command) && !COMMANDS_THAT_BUILD_A_BLOG.has(command)) {
    fail(`Unknown command "${command}".\n\n${USAGE}`);
  }
  const importSource =
    command === "import" ? (rest[0] ?? fail("import needs a file: npm run blog -- import ghost-export.json")) : "";
  if (command === "import" && !existsSync(importSource)) fail(`${importSource} does not exist.`);
  const importOptions = command === "import" ? readImportOptions(values) : DEFAULT_IMPORT_OPTIONS;
  if (config.database.dialect === "sqlite" && !existsSync(config.database.filename)) {
    if (COMMANDS_ON_AN_EXISTING_BLOG.has(command)) {
      fail(
        `There is no blog database at ${config.database.filename}. Set DATABASE_URL as the server has it ` +
          "(`npm run blog -- migrate` creates a new, empty blog).",
      );
    }
    if (!values.yes && canAsk()) {
      console.log(`There is no blog database at ${config.database.filename}.`);
      if (!(await confirm("Create a new, empty blog there?"))) {
        fail("Nothing was created. Set DATABASE_URL as the server has it to work on your blog.");
      }
    }
    console.log(`Creating a new blog database at ${config.database.filename}.`);
  }
  const handle = await openDatabase(config.database);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const services = createServices({
      db: handle.db,
      dialect: handle.dialect,
      commentIpSalt: resolveCommentIpSalt(config),
      // The app servers' own secret: app keys made here are sealed under it (server/apps/README.md).
      sessionSecret: resolveSessionSecret(config),
    });
    const email = () => {
      const parsed = emailSchema.safeParse(values.email);
      return parsed.success ? parsed.data : fail(`${command} needs --email <address>`);
    };

    switch (command) {
      case "migrate":
        console.log("The database schema is up to date.");
        break;
      case "seed-demo": {
        const added = await seedDemoContent(handle.db, services.comments, { siteUrl: config.siteUrl, now: new Date() });
        console.log(
          added > 0 ? `Loaded ${added} demo posts.` : "The blog already has posts; demo content was not loaded.",
        );
        break;
      }
      case "create-admin": {
        const address = email();
        const created = await services.auth.ensureAdmin(address, await askPassword());
        if (!created) fail(`An admin with the email ${address} already exists; use reset-password.`);
        console.log(`Admin ${address} created. Sign in at ${config.siteUrl}/login`);
        break;
      }
      case "reset-password": {
        const address = email();
        const changed = await services.auth.resetPassword(address, await askPassword());
        if (!changed) fail(`No admin has the email ${address}.`);
        console.log(`Password changed for ${address}; its sessions were signed out.`);
        break;
      }
      case "reset-2fa": {
        const address = email();
        if (!(await services.twoFactor.reset(address))) fail(`No admin has the email ${address}.`);
        console.log(`Two-factor sign-in is off for ${address}; the password alone signs in until it is set up again.`);
        break;
      }
      case "backup": {
        const target = rest[0] ?? fail("backup needs a target file: npm run blog -- backup backups/blog.sqlite");
        if (!handle.backupTo) {
          fail(
            "Backups of PostgreSQL are made with its own tools: pg_dump --format=custom --file=blog.dump <database>",
          );
        }
        const file = path.resolve(target);
        if (existsSync(file)) fail(`${file} already exists; choose a new file name.`);
        mkdirSync(path.dirname(file), { recursive: true });
        const copying = step("Backing up");
        await handle.backupTo(file, (fraction) => copying.update(fraction));
        copying.done();
        console.log(`Backed up to ${file}`);
        break;
      }
      case "media": {
        const action = rest[0];
        if (action !== "unused" && action !== "prune") fail(`media needs "unused" or "prune".\n\n${USAGE}`);
        const unused = await services.media.listPrunable();
        for (const image of unused) {
          console.log(`${image.hash}  ${image.originalName}  unused since ${image.unusedSince ?? "?"}`);
        }
        if (action === "unused") {
          console.log(unused.length === 0 ? "No image has gone unused for 30 days." : `${unused.length} unused.`);
          break;
        }
        const removed = await services.media.prune();
        console.log(`Removed ${removed} ${removed === 1 ? "image" : "images"} no post had used for 30 days.`);
        break;
      }
      case "bench-data": {
        const posts = z.coerce.number().int().min(1).max(10_000_000).safeParse(values.posts);
        if (!posts.success) fail("bench-data needs --posts <N>, a whole number of posts");
        const started = performance.now();
        const adding = step(`Adding ${posts.data} posts`);
        await generateBenchData(handle.db, {
          posts: posts.data,
          onProgress: (done) => adding.update(done / posts.data),
        });
        adding.done(`added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        break;
      }
      case "export": {
        const target = rest[0] ?? fail("export needs a target file: npm run blog -- export blog-export.json");
        const file = path.resolve(target);
        if (existsSync(file)) fail(`${file} already exists; choose a new file name.`);
        const source = file.toLowerCase().endsWith(".zip")
          ? services.portability.exportArchive()
          : Readable.from(services.portability.exportBlog());
        const writing = step("Exporting");
        let written = 0;
        await pipeline(
          source,
          async function* count(chunks: AsyncIterable<string | Buffer>) {
            for await (const chunk of chunks) {
              written += Buffer.byteLength(chunk);
              writing.update(megabytes(written));
              yield chunk;
            }
          },
          createWriteStream(file, { flags: "wx" }),
        );
        writing.done(megabytes(written));
        console.log(`Exported to ${file}`);
        break;
      }
      case "apps": {
        await runAppsCommand(services, rest, values);
        break;
      }
      case "import": {
        const source = importSource;
        // A .zip export may be as large as its images; only its JSON document has the import limit.
        const archive = isZipFile(source);
        if (!archive && statSync(source).size > IMPORT_MAX_BYTES) fail(messageOf(refuseTooLarge));
        const names = (await services.categories.list()).map((category) => category.name);
        const unknown = refuseUnknownImportCategories(importOptions, names);
        if (unknown.defaultCategory) fail(`--default-category ${unknown.defaultCategory}`);
        if (unknown.categoryMap) fail(`--category-map: ${unknown.categoryMap}`);
        try {
          const importing = step(`Importing ${source} (${megabytes(statSync(source).size)})`);
          const report = archive
            ? await services.portability.importArchive(path.resolve(source), importOptions)
            : await services.portability.importBlog(readFileSync(source, "utf8"), importOptions);
          importing.done();
          for (const line of describeImportReport(report)) console.log(line);
        } catch (error) {
          if (error instanceof DomainError) fail(`Nothing was imported: ${error.message}`);
          throw error;
        }
        break;
      }
      default:
        fail(`Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await handle.close();
  }
}

/** `apps create|list|revoke`: the Settings → Apps screen from the shell. */
async function runAppsCommand(
  services: ReturnType<typeof createServices>,
  [action, ...names]: string[],
  values: { name?: string; scope?: string; email?: string },
): Promise<void> {
  const { keys } = services.apps;
  try {
    const holder = await keys.findHolder(values.email);
    if (action === "create") {
      const parsed = appKeySchema.safeParse({ name: values.name ?? "", scope: values.scope ?? "" });
      if (!parsed.success)
        fail(`apps create: ${parsed.error.issues[0]?.message ?? "invalid"} (--name <name> --scope drafts|publish)`);
      const created = await keys.createKey(holder, parsed.data);
      console.log(`admin-key: ${created.adminKey}`);
      console.log(`content-key: ${created.contentKey}`);
      console.log(`token: ${created.token}`);
    } else if (action === "list") {
      const listed = await keys.listKeys(holder);
      if (listed.length === 0) console.log("No app keys.");
      for (const key of listed) {
        const used = key.lastUsedAt ? `last used ${key.lastUsedAt} from ${key.lastUsedAddress ?? "?"}` : "never used";
        console.log(`${key.name}  ${key.scope}  as ${key.userName}  ${used}`);
      }
    } else if (action === "revoke") {
      const name =
        names.join(" ") || values.name || fail("apps revoke needs the app's name: npm run blog -- apps revoke NAME");
      console.log(`Revoked ${await keys.revokeKey(holder, { name })}.`);
    } else {
      fail(`apps needs "create", "list" or "revoke".\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof DomainError) fail(error.message);
    throw error;
  }
}

function readImportOptions(values: {
  "category-map"?: string;
  "default-category"?: string;
  pages?: string;
}): ImportOptions {
  const options = { ...DEFAULT_IMPORT_OPTIONS };
  if (values.pages !== undefined) {
    const pages = z.enum(PAGE_OPTIONS).safeParse(values.pages);
    options.pages = pages.success ? pages.data : fail(`--pages must be one of ${PAGE_OPTIONS.join(", ")}`);
  }
  if (values["default-category"] !== undefined) {
    const category = categorySchema.safeParse(values["default-category"]);
    options.defaultCategory = category.success
      ? category.data
      : fail(`--default-category ${category.error.issues[0]?.message ?? "must be a category name"}`);
  }
  if (values["category-map"] !== undefined) {
    let map: unknown;
    try {
      map = JSON.parse(readFileSync(values["category-map"], "utf8"));
    } catch (error) {
      fail(`--category-map: cannot read ${values["category-map"]} as JSON (${(error as Error).message})`);
    }
    const parsed = categoryMapSchema.safeParse(map);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail(`--category-map: "${issue?.path.join(".") ?? ""}" ${issue?.message ?? "is invalid"}`);
    }
    options.categoryMap = parsed.data;
  }
  return options;
}

function messageOf(action: () => never): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
