import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import type { Worker } from "../../server/kernel/workers.ts";
import { DELIVERIES_KEPT_MS, type WebhookTuning } from "../../server/webhooks/index.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

// Webhooks (issue 37) called on a real receiver on 127.0.0.1 (tests/support/webhook-receiver.ts),
// which checks each signature with the secret the blog showed once. The receiver is on this
// machine, so these services turn FEDIVERSE_ALLOW_PRIVATE_ADDRESS on, as the Webmention tests do;
// the last suite leaves it off and sees such URLs refused.

const SESSION_SECRET = "the webhook test's server secret";
const LEASE_MS = 1_000;
const WORKER = fileURLToPath(new URL("../support/webhook-worker.ts", import.meta.url));
const eventually = { timeout: 15_000, interval: 25 };
const OWNER = { label: "owner" };

describe.each(testDialects())("webhooks on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle & { url: string };
  let receiver: WebhookReceiver;
  const workers: Worker[] = [];
  const others: DatabaseHandle[] = [];
  const failures: unknown[] = [];

  const makeServices = (db = handle.db, tuning: Partial<WebhookTuning> = {}) =>
    createServices({
      db,
      dialect,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: SESSION_SECRET,
      fediverseAllowPrivateAddress: true,
      webhookTuning: { pollMs: 10, leaseMs: LEASE_MS, retryBaseMs: 20, ...tuning },
      onWebhookError: (error) => failures.push(error),
    });
  const startWorker = async (services: Services) => {
    const worker = services.webhooks.worker((error) => failures.push(error));
    workers.push(worker);
    await worker.start();
  };
  const addWebhook = async (
    services: Services,
    event: Parameters<Services["webhooks"]["create"]>[1]["event"],
    path: string,
  ) => {
    const created = await services.webhooks.create(OWNER, { event, url: receiver.url(path) });
    receiver.trust(path, created.secret);
    const [hook] = (await services.webhooks.list()).filter(
      (listed) => listed.url === created.url && listed.event === event,
    );
    return hook!;
  };

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    receiver = await startWebhookReceiver();
    failures.length = 0;
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await receiver?.close();
    for (const other of others.splice(0)) await other.close();
    await handle?.close();
    expect(failures).toEqual([]);
  });

  it("tells each event's URL of a post published, changed and unpublished and of a comment, signed", async () => {
    const services = makeServices();
    await addWebhook(services, "post.published", "/published");
    await addWebhook(services, "post.updated", "/updated");
    await addWebhook(services, "post.unpublished", "/unpublished");
    await addWebhook(services, "comment.received", "/comments");

    const post = await services.posts.createPost(buildPostInput({ title: "Herons at dawn" }));
    // Queued with the save itself, before any worker ran.
    const [published] = (await services.webhooks.list()).filter((hook) => hook.event === "post.published");
    expect(published!.lastDelivery).toMatchObject({ state: "queued", attempts: 0 });

    await startWorker(services);
    await services.posts.updatePost(post.id, buildPostInput({ title: "Herons at noon" }));
    await services.comments.addComment(post.slug, { author: "Ann", content: "Lovely birds" });
    await services.posts.updatePost(post.id, buildPostInput({ title: "Herons at noon", published: false }));

    await expect.poll(() => receiver.calls.length, eventually).toBe(4);
    const byEvent = new Map(receiver.calls.map((call) => [call.event, call]));
    expect([...byEvent.keys()].toSorted()).toEqual([
      "comment.received",
      "post.published",
      "post.unpublished",
      "post.updated",
    ]);
    expect(receiver.calls.every((call) => call.signed)).toBe(true);
    expect(byEvent.get("post.published")!.body).toMatchObject({
      event: "post.published",
      data: { post: { id: post.id, title: "Herons at dawn", url: `http://localhost:3000/blog/${post.slug}` } },
    });
    expect(byEvent.get("post.updated")!.body.data).toMatchObject({ post: { title: "Herons at noon" } });
    expect(byEvent.get("comment.received")!.body.data).toMatchObject({
      comment: { author: "Ann", content: "Lovely birds" },
      post: { id: post.id },
    });
    await expect
      .poll(async () => (await services.webhooks.list()).map((hook) => hook.lastDelivery?.state), eventually)
      .toEqual(["delivered", "delivered", "delivered", "delivered"]);
  });

  it("tells of a restored revision and of a deleted post, each once, though neither is a save", async () => {
    const services = makeServices();
    await addWebhook(services, "post.updated", "/updated");
    await addWebhook(services, "post.unpublished", "/unpublished");
    const post = await services.posts.createPost(buildPostInput({ title: "Herons at dawn" }));
    await services.posts.updatePost(post.id, buildPostInput({ title: "Herons at noon" }));
    const [, original] = await services.posts.listRevisions(post.id);
    await startWorker(services);
    await services.posts.restoreRevision(post.id, original!.id, { email: "owner@example.com", label: "Owner" });
    await expect.poll(() => receiver.calls.length, eventually).toBe(2);
    await services.posts.deletePost(post.id);

    await expect.poll(() => receiver.calls.length, eventually).toBe(3);
    const told = receiver.calls.map((call) => `${call.event}: ${(call.body.data.post as { title: string }).title}`);
    expect(told.toSorted()).toEqual([
      "post.unpublished: Herons at dawn",
      "post.updated: Herons at dawn",
      "post.updated: Herons at noon",
    ]);
  });

  it("a call to a receiver that keeps failing is tried again, then given up with the reason in plain words", async () => {
    const services = makeServices(handle.db, { maxAttempts: 3 });
    receiver.answerWith((response) => {
      response.statusCode = 500;
      response.end("the database is down");
    });
    const hook = await addWebhook(services, "post.published", "/failing");
    await services.posts.createPost(buildPostInput());
    await startWorker(services);

    await expect.poll(async () => (await services.webhooks.list())[0]!.lastDelivery?.state, eventually).toBe("failed");
    expect(receiver.calls).toHaveLength(3);
    expect(new Set(receiver.calls.map((call) => call.body.id)).size).toBe(1);
    const [listed] = await services.webhooks.list();
    expect(listed!.lastDelivery).toMatchObject({
      attempts: 3,
      lastError: "Gave up after 3 tries: the receiver answered 500: “the database is down”.",
    });
    const [delivery] = await services.webhooks.deliveries(hook.id);
    expect(delivery).toMatchObject({ response_status: 500, response_excerpt: "the database is down" });
  });

  it("keeps only a short excerpt of what a receiver answers", async () => {
    const services = makeServices();
    receiver.answerWith((response) => response.end("x".repeat(100_000)));
    const hook = await addWebhook(services, "post.published", "/chatty");
    await services.posts.createPost(buildPostInput());
    await startWorker(services);
    await expect
      .poll(async () => (await services.webhooks.deliveries(hook.id))[0]?.state, eventually)
      .toBe("delivered");
    expect((await services.webhooks.deliveries(hook.id))[0]!.response_excerpt).toHaveLength(200);
  });

  it(
    "a worker killed with -9 mid-delivery leaves the call to another, which delivers it",
    { timeout: 60_000 },
    async () => {
      const services = makeServices();
      const held: import("node:http").ServerResponse[] = [];
      receiver.answerWith((response) => held.push(response));
      const hook = await addWebhook(services, "post.published", "/slow");
      await services.posts.createPost(buildPostInput());

      const child = spawn(process.execPath, [WORKER], {
        env: { ...process.env, DATABASE_URL: handle.url, SESSION_SECRET, LEASE_MS: String(LEASE_MS) },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let childErrors = "";
      child.stderr.on("data", (chunk: Buffer) => (childErrors += chunk.toString()));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // The child's call arrived and waits for its answer: it is mid-delivery.
      await expect.poll(() => receiver.calls.length, { timeout: 30_000, interval: 25 }).toBe(1);
      child.kill("SIGKILL");
      await exited;
      expect(childErrors).toBe("");
      expect((await services.webhooks.deliveries(hook.id))[0]!.state).toBe("claimed");

      receiver.answerWith((response) => response.end("ok"));
      for (const response of held) response.destroy();
      await startWorker(services);
      await expect
        .poll(async () => (await services.webhooks.deliveries(hook.id))[0]?.state, eventually)
        .toBe("delivered");
      // Sent again once its lease ran out, with the same id, so the receiver can tell it is the same event.
      expect(receiver.calls).toHaveLength(2);
      expect(receiver.calls[1]!.body.id).toBe(receiver.calls[0]!.body.id);
      expect(receiver.calls.every((call) => call.signed)).toBe(true);
    },
  );

  it("two servers' workers share the calls without making any twice", { timeout: 60_000 }, async () => {
    const first = makeServices();
    const secondDb =
      dialect === "postgres" ? await openDatabase({ dialect: "postgres", connectionString: handle.url }) : undefined;
    if (secondDb) others.push(secondDb);
    const second = makeServices(secondDb?.db ?? handle.db);
    for (let index = 0; index < 10; index += 1) await addWebhook(first, "post.published", `/shared/${index}`);
    await Promise.all([startWorker(first), startWorker(second)]);
    for (let index = 0; index < 5; index += 1) await first.posts.createPost(buildPostInput());

    await expect.poll(() => receiver.calls.length, eventually).toBe(50);
    // Time for any duplicate to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.calls).toHaveLength(50);
    expect(new Set(receiver.calls.map((call) => call.body.id)).size).toBe(50);
    expect(receiver.calls.every((call) => call.signed)).toBe(true);
  });

  it("housekeeping forgets calls that ended over 30 days ago, keeping each webhook's last and any not yet made", async () => {
    let at = Date.parse("2026-03-01T12:00:00Z");
    const services = createServices({
      db: handle.db,
      dialect,
      now: () => new Date(at),
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: SESSION_SECRET,
      fediverseAllowPrivateAddress: true,
      webhookTuning: { pollMs: 10, leaseMs: LEASE_MS, retryBaseMs: 20 },
      onWebhookError: (error) => failures.push(error),
    });
    const hook = await addWebhook(services, "post.published", "/kept");
    for (const title of ["One", "Two", "Three"]) await services.posts.createPost(buildPostInput({ title }));
    await startWorker(services);
    await expect.poll(() => receiver.calls.length, eventually).toBe(3);
    await expect
      .poll(async () => (await services.webhooks.deliveries(hook.id)).map((delivery) => delivery.state), eventually)
      .toEqual(["delivered", "delivered", "delivered"]);
    const [ran] = workers.splice(0);
    await ran!.stop();
    const states = async () => (await services.webhooks.deliveries(hook.id)).map((delivery) => delivery.state);

    at += DELIVERIES_KEPT_MS - 60_000;
    expect((await services.housekeeping.purgeExpired()).webhookDeliveries).toBe(0);
    at += 120_000;
    expect((await services.housekeeping.purgeExpired()).webhookDeliveries).toBe(2);
    expect(await states()).toEqual(["delivered"]);

    await services.posts.createPost(buildPostInput({ title: "Four" }));
    at += DELIVERIES_KEPT_MS * 2;
    expect((await services.housekeeping.purgeExpired()).webhookDeliveries).toBe(1);
    expect(await states()).toEqual(["queued"]);
  });

  it("removing a webhook takes it and its queued calls away", async () => {
    const services = makeServices();
    const hook = await addWebhook(services, "post.published", "/gone");
    await services.posts.createPost(buildPostInput());
    await services.webhooks.remove(OWNER, hook.id);
    expect(await services.webhooks.list()).toEqual([]);
    expect(await services.webhooks.deliveries(hook.id)).toEqual([]);
    await expect(services.webhooks.remove(OWNER, hook.id)).rejects.toSatisfy((error) =>
      isDomainError(error, "WEBHOOK_NOT_FOUND"),
    );
  });
});

describe.each(testDialects())("webhooks to private addresses on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle & { url: string };
  let receiver: WebhookReceiver;
  let worker: Worker | undefined;
  const failures: unknown[] = [];

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await worker?.stop();
    await receiver?.close();
    await handle?.close();
    expect(failures).toEqual([]);
  });

  const services = (allowPrivateAddress: boolean) =>
    createServices({
      db: handle.db,
      dialect,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: SESSION_SECRET,
      fediverseAllowPrivateAddress: allowPrivateAddress,
      webhookTuning: { pollMs: 10 },
    });

  it("refuses a URL on this machine or a private network when it is saved", async () => {
    const blog = services(false);
    for (const url of [
      receiver.url("/hook"),
      "http://localhost:8080/hook",
      "http://10.0.0.7/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://user:secret@example.com/hook",
    ]) {
      await expect(blog.webhooks.create(OWNER, { event: "post.published", url }), url).rejects.toSatisfy(
        (error) => isDomainError(error, "WEBHOOK_REFUSED") && error.message.startsWith("That URL cannot be called: "),
      );
    }
    expect(await blog.webhooks.list()).toEqual([]);
  });

  it("refuses at delivery a private address saved before, and never calls it", async () => {
    // Saved by a server that allowed it (as a test server does), delivered by one that does not.
    await services(true).webhooks.create(OWNER, { event: "post.published", url: receiver.url("/inside") });
    const blog = services(false);
    await blog.posts.createPost(buildPostInput());
    worker = blog.webhooks.worker((error) => failures.push(error));
    await worker.start();
    await expect.poll(async () => (await blog.webhooks.list())[0]!.lastDelivery?.state, eventually).toBe("failed");
    expect((await blog.webhooks.list())[0]!.lastDelivery!.lastError).toBe(
      "Not sent: the URL cannot be called: 127.0.0.1 is not a public address.",
    );
    expect(receiver.calls).toEqual([]);
  });
});
