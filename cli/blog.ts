// `npm run blog -- <command>`: administration from the shell, over the same services the site uses.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { adminPasswordSchema } from "../app/schemas/login.ts";
import { parseConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/connect.ts";
import { migrateToLatest } from "../server/db/migrate.ts";
import { seedDemoContent } from "../server/services/demo.ts";
import { createServices } from "../server/services/index.ts";
import { readSecret } from "./read-secret.ts";

const USAGE = `Usage: npm run blog -- <command>

Commands:
  migrate                          apply pending database migrations
  seed-demo                        load the demo posts (only into a blog with no posts)
  create-admin --email <address>   create an admin; the password is asked for, or read from ADMIN_PASSWORD
  reset-password --email <address> set a new password (signs that admin out everywhere)
  backup <file>                    copy the SQLite database to <file> while the blog runs

The database is DATABASE_URL (default file:./data/blog.sqlite).`;

const emailSchema = z.email();

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

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return;
  }

  // ADMIN_PASSWORD is this command's password input here, not the start-up admin pair.
  const config = parseConfig({ ...process.env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  const handle = await openDatabase(config.database);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const services = createServices({ db: handle.db, dialect: handle.dialect });
    const email = () => {
      const parsed = emailSchema.safeParse(values.email);
      return parsed.success ? parsed.data : fail(`${command} needs --email <address>`);
    };

    switch (command) {
      case "migrate":
        console.log("The database schema is up to date.");
        break;
      case "seed-demo": {
        const added = await seedDemoContent(handle.db, { siteUrl: config.siteUrl, now: new Date() });
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
      case "backup": {
        const target = rest[0] ?? fail("backup needs a target file: npm run blog -- backup backups/blog.sqlite");
        if (!handle.backupTo) {
          fail(
            "Backups of PostgreSQL are made with its own tools: pg_dump --format=custom --file=blog.dump <database>",
          );
        }
        const file = path.resolve(target);
        if (existsSync(file)) fail(`${file} already exists; choose a new file name.`);
        await handle.backupTo(file);
        console.log(`Backed up to ${file}`);
        break;
      }
      default:
        fail(`Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
