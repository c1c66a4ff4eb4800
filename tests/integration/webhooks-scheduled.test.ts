import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServices } from "../../server/composition.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import type { Worker } from "../../server/kernel/workers.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

// A scheduled post becomes public by the clock, with no save: every server's clock looks, and
// the post's mark (posts.webhooks_announced_at, as Webmention's) lets exactly one of them queue
// `post.published` (docs/decisions/0035). Two servers, each with its clock and its worker, on a
// real receiver on 127.0.0.1.
const eventually = { timeout: 15_000, interval: 25 };

describe.each(testDialects())("a scheduled post's webhook on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle & { url: string };
  let receiver: WebhookReceiver;
  const running: Worker[] = [];
  const others: DatabaseHandle[] = [];
  const failures: unknown[] = [];

  const makeServices = (db = handle.db) =>
    createServices({
      db,
      dialect,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: "the scheduled webhook test's server secret",
      fediverseAllowPrivateAddress: true,
      webhookTuning: { pollMs: 10, leaseMs: 1_000, retryBaseMs: 20 },
      onWebhookError: (error) => failures.push(error),
    });

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    receiver = await startWebhookReceiver();
    failures.length = 0;
  });
  afterEach(async () => {
    for (const worker of running.splice(0)) await worker.stop();
    await receiver?.close();
    for (const other of others.splice(0)) await other.close();
    await handle?.close();
    expect(failures).toEqual([]);
  });

  it("sends post.published once when its time comes, though two servers look", { timeout: 60_000 }, async () => {
    const first = makeServices();
    const secondDb =
      dialect === "postgres" ? await openDatabase({ dialect: "postgres", connectionString: handle.url }) : undefined;
    if (secondDb) others.push(secondDb);
    const second = makeServices(secondDb?.db ?? handle.db);
    const created = await first.webhooks.create(
      { label: "owner" },
      { event: "post.published", url: receiver.url("/hook") },
    );
    receiver.trust("/hook", created.secret);

    const now = await first.posts.createPost(buildPostInput({ title: "Out at once" }));
    const publishAt = new Date(Date.now() + 1500).toISOString().slice(0, 19);
    const later = await first.posts.createPost(
      buildPostInput({ title: "Out by the clock", publishAt, publishAtOffset: "0" }),
    );
    for (const services of [first, second]) {
      const onError = (error: unknown) => failures.push(error);
      running.push(services.webhooks.worker(onError), services.posts.scheduledPosts(onError));
    }
    for (const worker of running) await worker.start();
    await expect.poll(() => receiver.calls.length, eventually).toBe(2);
    // The clocks look again, and the workers turn: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (const worker of running) await worker.nudge?.();
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(receiver.calls.map((call) => [call.event, (call.body.data as { post: { id: string } }).post.id])).toEqual([
      ["post.published", now.id],
      ["post.published", later.id],
    ]);
    expect(receiver.calls.every((call) => call.signed)).toBe(true);
    expect(receiver.calls[1]!.body.data).toMatchObject({ post: { title: "Out by the clock" } });
  });
});
