// One webhook worker in a process of its own, for a test to kill with SIGKILL mid-delivery
// (tests/integration/webhooks.test.ts): the services and worker as server.ts runs them, on
// DATABASE_URL (`file:` SQLite or PostgreSQL), with the test's SESSION_SECRET (which opens the
// signing secrets) and a lease of LEASE_MS; receivers on 127.0.0.1 allowed, as in the test.
import { createServices } from "../../server/composition.ts";
import { openDatabase } from "../../server/kernel/db/connect.ts";

const databaseUrl = process.env.DATABASE_URL!;
const handle = databaseUrl.startsWith("file:")
  ? await openDatabase({ dialect: "sqlite", filename: databaseUrl.slice("file:".length) })
  : await openDatabase({ dialect: "postgres", connectionString: databaseUrl });
const services = createServices({
  db: handle.db,
  dialect: handle.dialect,
  commentIpSalt: "webhook worker",
  sessionSecret: process.env.SESSION_SECRET!,
  fediverseAllowPrivateAddress: true,
  webhookTuning: { pollMs: 10, leaseMs: Number(process.env.LEASE_MS) },
});
await services.webhooks.worker((error) => process.stderr.write(`${String(error)}\n`)).start();
process.stdout.write("worker started\n");
