import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Ajv } from "ajv";
import { describe, expect, it, vi } from "vitest";
import { DomainError } from "#domain/errors.ts";
import { DEFAULT_IMPORT_OPTIONS } from "#domain/portability.ts";
import {
  describeSubscriberImport,
  describeSubscriberImportProgress,
  SUBSCRIBER_CSV_MAX_BYTES,
  SUBSCRIBER_IMPORT_RUNNING_MESSAGE,
  type SubscriberImportReport,
  type SubscriberImportStatus,
} from "#domain/subscribers.ts";
import { loader } from "../../app/routes/admin/subscribers.tsx";
import { action as importAction } from "../../app/routes/admin/subscribers-import.tsx";
import * as subscriberImports from "../../server/newsletter/repositories/subscriber-imports.ts";
import * as subscribers from "../../server/newsletter/repositories/subscribers.ts";
import { createServices, type Services } from "../../server/composition.ts";
import type { SubscriberCsvSource } from "../../server/newsletter/subscriber-csv.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { TEST_PASSWORD_COST } from "../support/factories.ts";
import { createRouteTestContext, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const schema = JSON.parse(readFileSync(new URL("../../docs/export-format.schema.json", import.meta.url), "utf8"));

/** The domain error a call refuses with. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Imports a CSV and waits for the import to end, as the writer watching the screen does: its report. */
async function importCsv(
  services: Services,
  source: SubscriberCsvSource,
  { consent }: { consent: boolean },
): Promise<SubscriberImportReport> {
  const run = await services.subscribers.startImport(source, {
    consent,
    startedBy: "ada",
    onError: (error) => console.error(error),
  });
  const status = await run.finished;
  if (status.state !== "finished") throw new Error(`The import ended ${status.state}`);
  return status.report;
}

/** The CSV form's upload, as a browser sends it. */
function upload(content: string, consent = "yes"): Request {
  const body = new FormData();
  body.append("file", new File([content], "list.csv"));
  body.append("consent", consent);
  return new Request("http://blog.test/admin/subscribers/import", { method: "POST", body });
}

/** A list of `rows` valid addresses and one invalid line at the end. */
const bigList = (rows: number) =>
  `email\n${Array.from({ length: rows }, (_, index) => `reader${index}@list.example`).join("\n")}\nnot-an-address\n`;

/** The temporary directories uploads are streamed to. */
const uploadDirectories = () => readdirSync(tmpdir()).filter((name) => name.startsWith("inkwell-subscribers-"));

async function csvOf(services: Services): Promise<string> {
  let text = "";
  for await (const chunk of services.subscribers.exportCsv()) text += chunk;
  return text;
}

describe.each(testDialects())("the Subscribers screen's services on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const find = (email: string) => subscribers.findSubscriberByEmail(blog.handle.db, email);

  /** Another, empty blog on its own database, on the same clock: where a list or an export moves to. */
  async function inAnotherBlog(work: (other: Services) => Promise<void>): Promise<void> {
    const target = await createTestDatabase(dialect);
    try {
      await work(
        createServices({
          db: target.db,
          dialect,
          now: blog.clock.now,
          passwordCost: TEST_PASSWORD_COST,
          commentIpSalt: TEST_COMMENT_IP_SALT,
        }),
      );
    } finally {
      await target.close();
    }
  }

  it("adds one address as active, and leaves an address already listed as it is", async () => {
    const { services, clock } = blog;
    await services.subscribers.add({ email: " Friend@Example.COM ", consent: "yes" });
    expect(await find("Friend@example.com")).toMatchObject({
      state: "active",
      source: "admin",
      confirmedAt: clock.now().toISOString(),
    });

    expect(await refusal(services.subscribers.add({ email: "Friend@example.com", consent: "yes" }))).toEqual({
      code: "SUBSCRIBER_EXISTS",
      status: 409,
      message: "This address is on the list already (active).",
    });

    const gone = (await find("Friend@example.com"))!;
    await subscribers.unsubscribeSubscriber(blog.handle.db, gone.id, clock.now().toISOString());
    expect((await refusal(services.subscribers.add({ email: "Friend@example.com", consent: "yes" }))).message).toBe(
      "This address is on the list already (unsubscribed).",
    );
    expect((await find("Friend@example.com"))?.state).toBe("unsubscribed");
  });

  it("takes an address in another case for the one on the list, when added, imported or exported", async () => {
    const { services } = blog;
    await services.subscribers.add({ email: "Grace@navy.example", consent: "yes" });
    expect(await refusal(services.subscribers.add({ email: "grace@NAVY.example", consent: "yes" }))).toEqual({
      code: "SUBSCRIBER_EXISTS",
      status: 409,
      message: "This address is on the list already (active).",
    });
    blog.clock.advance(1000);
    const report = await importCsv(services, "email\nGRACE@navy.example\nNew@x.example\nnew@X.example\n", {
      consent: false,
    });
    expect(report).toMatchObject({ added: 1, alreadyListed: 2 });
    const lines = (await csvOf(services)).split("\r\n").slice(1, -1);
    expect(lines.map((line) => line.split(",").slice(0, 2).join(","))).toEqual([
      "Grace@navy.example,active",
      "New@x.example,pending",
    ]);
  });

  it("removes a subscriber for good, with the address of the emails sent to them", async () => {
    const { services, handle } = blog;
    await services.subscribers.add({ email: "leaving@example.com", consent: "yes" });
    await services.subscribers.add({ email: "staying@example.com", consent: "yes" });
    const leaving = (await find("leaving@example.com"))!;
    await services.outbox.enqueueSingle({ to: "leaving@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" });
    await handle.db.updateTable("email_deliveries").set({ state: "sent" }).execute();

    await services.subscribers.remove(leaving.id);
    await services.subscribers.remove(leaving.id);
    expect(await find("leaving@example.com")).toBeUndefined();
    expect((await find("staying@example.com"))?.state).toBe("active");
    const addresses = await handle.db.selectFrom("email_deliveries").select("to_address").execute();
    expect(addresses).toEqual([{ to_address: "" }]);
  });

  it("imports Ghost's members CSV: pending without consent, members who wanted no email skipped, bad lines named", async () => {
    const { services } = blog;
    await services.subscribers.add({ email: "Grace.Hopper@navy.example", consent: "yes" });
    const report = await importCsv(services, fixture("ghost-members.csv"), { consent: false });
    expect(report).toEqual({
      state: "pending",
      added: 1,
      alreadyListed: 2,
      notSubscribed: 1,
      invalid: [
        { line: 5, value: "not-an-address" },
        { line: 6, value: '=HYPERLINK("http://evil.example")' },
      ],
    });
    expect(describeSubscriberImport(report)).toEqual([
      "1 address added as pending; 2 already on the list; 1 skipped: not subscribed to emails in the export; 2 not valid.",
      "Skipped line 5: “not-an-address” is not a valid email address",
      'Skipped line 6: “=HYPERLINK("http://evil.example")” is not a valid email address',
    ]);
    expect(await find("ada@example.com")).toMatchObject({ state: "pending", source: "import", confirmedAt: undefined });
    expect((await find("Grace.Hopper@navy.example"))?.source).toBe("admin");
    expect(await find("quiet@example.com")).toBeUndefined();
    // Nobody imported is emailed, with consent or without.
    expect(await blog.handle.db.selectFrom("email_deliveries").selectAll().execute()).toEqual([]);
  });

  it("imports Substack's subscriber CSV as active when they agreed to this newsletter", async () => {
    const { services } = blog;
    const report = await importCsv(services, fixture("substack-subscribers.csv"), { consent: true });
    expect(report).toEqual({
      state: "active",
      added: 2,
      alreadyListed: 1,
      notSubscribed: 0,
      invalid: [{ line: 4, value: "" }],
    });
    expect(describeSubscriberImport(report).at(-1)).toBe("Skipped line 4: no email address");
    expect(await find("reader.two@example.org")).toMatchObject({ state: "active", source: "import" });
    expect((await find("reader.one@example.org"))?.confirmedAt).toBeDefined();
  });

  it("imports a large CSV from its file in batches, never holding up other work, and names at most 100 bad lines", async () => {
    const { services } = blog;
    const rows = 60_000;
    const lines = Array.from({ length: rows }, (_, index) =>
      index % 500 === 7 ? `not-an-address-${index}` : `reader${index}@list.example`,
    );
    const directory = mkdtempSync(path.join(tmpdir(), "subscriber-csv-"));
    const file = path.join(directory, "subscribers.csv");
    writeFileSync(file, `email,name\n${lines.map((line) => `${line},Someone`).join("\n")}\n`);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    try {
      delay.enable();
      const started = performance.now();
      const report = await importCsv(services, { path: file }, { consent: false });
      const elapsed = performance.now() - started;
      delay.disable();
      const invalid = rows / 500;
      expect(report).toMatchObject({
        state: "pending",
        added: rows - invalid,
        alreadyListed: 0,
        moreInvalid: invalid - 100,
      });
      expect(report.invalid).toHaveLength(100);
      expect(report.invalid[0]).toEqual({ line: 9, value: "not-an-address-7" });
      expect(describeSubscriberImport(report).at(-1)).toBe(
        `Warning: ${invalid - 100} more lines are not valid and not listed here`,
      );
      expect(describeSubscriberImport(report)[0]).toContain(`${invalid} not valid`);
      // Readers' requests wait at most one batch, not the whole file: a small part of the import's
      // time (a file read in one piece held the loop for all of it), whatever the machine's load.
      expect(delay.max / 1e6).toBeLessThan(Math.max(250, elapsed / 4));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    expect(await subscribers.countSubscribersByState(blog.handle.db)).toMatchObject({ pending: rows - rows / 500 });
  });

  it("refuses a file it cannot read, with why, and adds nothing", async () => {
    const { services } = blog;
    expect(await refusal(importCsv(services, "name,note\nAda,hi\n", { consent: true }))).toEqual({
      code: "IMPORT_REFUSED",
      status: 400,
      message: "The CSV has no email column: its first line must name its columns, one of them email.",
    });
    expect(
      (await refusal(importCsv(services, 'email\na@example.com\n"b@example.com\n', { consent: true }))).message,
    ).toMatch(/^The file is not a CSV this blog can read: Quote Not Closed/);
    const huge = `email\n${"x".repeat(SUBSCRIBER_CSV_MAX_BYTES)}\n`;
    expect(await refusal(importCsv(services, huge, { consent: true }))).toMatchObject({
      code: "IMPORT_TOO_LARGE",
      status: 413,
    });
    expect(await subscribers.countSubscribersByState(blog.handle.db)).toEqual({
      pending: 0,
      active: 0,
      unsubscribed: 0,
      bounced: 0,
    });
  });

  /** The Subscribers screen as the owner sees it: where the import stands. */
  async function importOnScreen(): Promise<SubscriberImportStatus | undefined> {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const page = await settle(() => loader(routeArgs(new Request("http://blog.test/admin/subscribers"), context)));
    return (page.body as { importStatus: SubscriberImportStatus | undefined }).importStatus;
  }

  async function uploadCsv(content: string): Promise<{ status: number; body: unknown; headers: Headers }> {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    return settle(() => importAction(routeArgs(upload(content), context)));
  }

  /** Reads the screen until the import has ended, every reading kept. */
  async function screensUntilEnded(): Promise<SubscriberImportStatus[]> {
    const seen: SubscriberImportStatus[] = [];
    await vi.waitFor(
      async () => {
        const status = (await importOnScreen())!;
        seen.push(status);
        expect(status.state).not.toBe("running");
      },
      { timeout: 60_000, interval: 10 },
    );
    return seen;
  }

  it("answers an upload before its import ends, shows the rows read meanwhile, and the report after", async () => {
    const rows = 20_000;
    const before = uploadDirectories();
    const answer = await uploadCsv(bigList(rows));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/admin/subscribers");

    const first = await importOnScreen();
    expect(first).toMatchObject({ state: "running", startedBy: "ada" });
    expect(describeSubscriberImportProgress(first!)).toMatch(/^Importing subscribers… \d+ rows? read\.$/);
    const seen = [first!, ...(await screensUntilEnded())];
    const midway = seen.filter((status) => status.state === "running" && status.rowsRead > 0);
    expect(midway.length).toBeGreaterThan(0);
    expect(midway.some((status) => status.state === "running" && status.rowsRead < rows)).toBe(true);

    const last = seen.at(-1)!;
    expect(last).toMatchObject({ state: "finished", startedBy: "ada" });
    expect(last.state === "finished" && describeSubscriberImport(last.report)).toEqual([
      `${rows} addresses added as active; 0 already on the list; 1 not valid.`,
      `Skipped line ${rows + 2}: “not-an-address” is not a valid email address`,
    ]);
    expect(describeSubscriberImportProgress(last)).toBeUndefined();
    expect((await subscribers.countSubscribersByState(blog.handle.db)).active).toBe(rows);
    // The uploaded file went with the import.
    expect(uploadDirectories().filter((name) => !before.includes(name))).toEqual([]);
  });

  it("refuses a second upload with 409 while an import runs, and takes one again once it ends", async () => {
    expect((await uploadCsv(bigList(20_000))).status).toBe(302);
    const second = await uploadCsv("email\nsecond@example.com\n");
    expect(second).toMatchObject({ status: 409, body: { errors: { file: SUBSCRIBER_IMPORT_RUNNING_MESSAGE } } });
    expect((await screensUntilEnded()).at(-1)?.state).toBe("finished");
    expect(await find("second@example.com")).toBeUndefined();

    expect((await uploadCsv("email\nsecond@example.com\n")).status).toBe(302);
    expect((await screensUntilEnded()).at(-1)?.state).toBe("finished");
    expect((await find("second@example.com"))?.state).toBe("active");
  });

  it("reads an import whose server went silent for a minute as stopped, and takes the file again", async () => {
    const { handle, clock } = blog;
    const startedAt = clock.now().toISOString();
    const claim = { newState: "active" as const, startedBy: "ada", now: startedAt, staleBefore: startedAt };
    expect(await subscriberImports.claimSubscriberImport(handle.db, { runId: "run-1", ...claim })).toBe(true);
    const progress = { rowsRead: 1500, added: 1400, alreadyListed: 100, notSubscribed: 0, invalid: 0 };
    expect(await subscriberImports.recordSubscriberImportProgress(handle.db, "run-1", progress, startedAt)).toBe(true);

    // A heartbeat 59 seconds old is an import still running (on another server, say).
    clock.advance(59_000);
    expect(await importOnScreen()).toMatchObject({ state: "running", rowsRead: 1500 });
    expect((await uploadCsv("email\nagain@example.com\n")).status).toBe(409);

    clock.advance(2_000);
    const stopped = (await importOnScreen())!;
    expect(stopped).toEqual({ state: "stopped", rowsRead: 1500 });
    expect(describeSubscriberImportProgress(stopped)).toBe(
      "The import stopped after 1500 rows; upload the file again to add the rest.",
    );
    // The silent server cannot write over the import that took its place.
    expect((await uploadCsv("email\nagain@example.com\n")).status).toBe(302);
    expect((await screensUntilEnded()).at(-1)).toMatchObject({ state: "finished", report: { added: 1 } });
    expect(await subscriberImports.recordSubscriberImportProgress(handle.db, "run-1", progress, startedAt)).toBe(false);
    expect(await importOnScreen()).toMatchObject({ state: "finished", report: { added: 1 } });
  });

  it("stops an import when the server shuts down, saying how far it got, and removes its file", async () => {
    const { services } = blog;
    const directory = mkdtempSync(path.join(tmpdir(), "subscriber-csv-"));
    const file = path.join(directory, "subscribers.csv");
    writeFileSync(file, bigList(20_000));
    const run = await services.subscribers.startImport(
      { path: file },
      {
        consent: false,
        startedBy: "ada",
        onError: (error) => console.error(error),
        afterwards: () => Promise.resolve(rmSync(directory, { recursive: true, force: true })),
      },
    );
    await services.subscribers.stop();
    const ended = await run.finished;
    expect(ended.state).toBe("stopped");
    expect(await importOnScreen()).toEqual(ended);
    const { pending } = await subscribers.countSubscribersByState(blog.handle.db);
    // Every batch it added is counted, and no more.
    expect(ended.state === "stopped" && ended.rowsRead).toBe(pending);
    expect(pending).toBeLessThan(20_000);
    expect(readdirSync(tmpdir())).not.toContain(path.basename(directory));
  });

  it("exports the list as CSV a spreadsheet cannot run, which imports back as it was", async () => {
    const { services, clock } = blog;
    const added = clock.now().toISOString();
    await services.subscribers.add({ email: "first@example.com", consent: "yes" });
    clock.advance(1000);
    const imported = clock.now().toISOString();
    await importCsv(services, "email\n+1@example.com\n-list@example.com\n", { consent: false });
    const csv = await csvOf(services);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("email,state,created_at,confirmed_at");
    expect(lines[1]).toBe(`first@example.com,active,${added},${added}`);
    expect(lines.slice(2).sort()).toEqual([
      "",
      `'+1@example.com,pending,${imported},`,
      `'-list@example.com,pending,${imported},`,
    ]);

    await inAnotherBlog(async (other) => {
      expect(await importCsv(other, csv, { consent: true })).toMatchObject({ added: 3, invalid: [] });
      expect(
        (await csvOf(other))
          .split("\r\n")
          .map((line) => line.split(",")[0])
          .sort(),
      ).toEqual(lines.map((line) => line.split(",")[0]).sort());
    });
  });

  it("counts every state and pages a state's list by 50, searched", async () => {
    const { services, clock } = blog;
    const rows = Array.from({ length: 60 }, (_, index) => `reader${index}@example.com`).join("\n");
    await importCsv(services, `email\n${rows}\n`, { consent: true });
    clock.advance(1000);
    await importCsv(services, "email\nlater@example.com\n", { consent: false });
    const first = await services.subscribers.listPage({ state: "active" });
    expect(first.counts).toEqual({ pending: 1, active: 60, unsubscribed: 0, bounced: 0 });
    expect(first.page.items).toHaveLength(50);
    const second = await services.subscribers.listPage({ state: "active", after: first.page.next });
    expect(second.page.items).toHaveLength(10);
    expect(second.page.next).toBeUndefined();
    const found = await services.subscribers.listPage({ state: "active", search: "READER5" });
    expect(found.page.items.map((item) => item.email).sort()).toEqual(
      ["reader5", ...Array.from({ length: 10 }, (_, index) => `reader5${index}`)]
        .map((name) => `${name}@example.com`)
        .sort(),
    );
  });

  it("carries subscribers with their state, and no token, through the blog's export and import", async () => {
    const { services, clock } = blog;
    await services.subscribers.add({ email: "kept@example.com", consent: "yes" });
    await importCsv(services, "email\npending@example.com\nleft@example.com\n", { consent: false });
    const left = (await find("left@example.com"))!;
    await subscribers.unsubscribeSubscriber(blog.handle.db, left.id, clock.now().toISOString());

    let text = "";
    for await (const chunk of services.portability.exportBlog()) text += chunk;
    const exported = JSON.parse(text) as { subscribers: Record<string, unknown>[] };
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(exported), JSON.stringify(validate.errors)).toBe(true);
    expect(exported.subscribers).toHaveLength(3);
    expect(exported.subscribers).toContainEqual({
      id: left.id,
      email: "left@example.com",
      state: "unsubscribed",
      source: "import",
      createdAt: left.createdAt,
      confirmedAt: null,
      unsubscribedAt: clock.now().toISOString(),
      bounces: 0,
    });
    expect(text).not.toMatch(/token/i);

    await inAnotherBlog(async (other) => {
      await other.subscribers.add({ email: "left@example.com", consent: "yes" });
      const report = await other.portability.importBlog(text, DEFAULT_IMPORT_OPTIONS);
      expect(report.warnings).toEqual(["2 subscribers imported with their state"]);
      expect(report.skipped).toEqual([
        { item: "1 subscribers", reason: "their address or id is on this blog's list already" },
      ]);
      const moved = await csvOf(other);
      expect(moved).toContain("kept@example.com,active,");
      expect(moved).toContain("pending@example.com,pending,");
      // Already on the other list as active: the import leaves it so.
      expect(moved).toContain("left@example.com,active,");
      expect((await other.subscribers.listPage({ state: "active" })).counts).toEqual({
        pending: 1,
        active: 2,
        unsubscribed: 0,
        bounced: 0,
      });
    });
  });
});
