// One newsletter worker in a process of its own, for a test to kill with SIGKILL mid-send
// (tests/integration/newsletter-crash.test.ts): the outbox and mailer as server.ts runs them, on
// DATABASE_URL (`file:` SQLite or PostgreSQL) and SMTP_URL, with a lease of LEASE_MS.
import { openDatabase } from "../../server/kernel/db/connect.ts";
import { createMailer } from "../../server/newsletter/mailer.ts";
import { createOutbox } from "../../server/newsletter/outbox.ts";

const databaseUrl = process.env.DATABASE_URL!;
const handle = databaseUrl.startsWith("file:")
  ? await openDatabase({ dialect: "sqlite", filename: databaseUrl.slice("file:".length) })
  : await openDatabase({ dialect: "postgres", connectionString: databaseUrl });
const outbox = createOutbox({
  db: handle.db,
  dialect: handle.dialect,
  now: () => new Date(),
  unsubscribeUrl: (id) => `https://blog.example/unsubscribe?token=${id}`,
  readSender: async () => ({ name: "Crash test", replyTo: undefined }),
  tuning: { pollMs: 10, leaseMs: Number(process.env.LEASE_MS) },
});
const mailer = await createMailer({ smtpUrl: process.env.SMTP_URL!, fromAddress: "news@blog.example", rate: 2000 });
outbox.start(mailer, (error) => process.stderr.write(`${String(error)}\n`));
process.stdout.write("worker started\n");
